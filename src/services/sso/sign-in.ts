/**
 * Signing in through a workspace's identity provider (docs/sso.md): start (find the workspace
 * by the email's domain or its id, send the browser to the IdP) and finish (spend the attempt,
 * let the method check the IdP's answer, find or make the member, open the session exactly as a
 * password login does). A step-up is the same round trip with the IdP told to authenticate again.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { openSignedInSession } from '../accounts/open-session';
import type { ActiveSession, SessionView } from '../accounts/sessions';
import { STEP_UP_FRESH_MS } from '../accounts/step-up';
import { recordAudit } from '../audit';
import { forbidden, invalid, notFound } from '../errors';
import type { Sealer } from '../sealing/seal';
import { newState, recordAttempt, spendAttempt, type AttemptPurpose } from './attempts';
import { isFreshIdpAuthentication } from '../../domain/sso';
import { assertSsoPlan, connectionOfWorkspace, type LoginConnection } from './connections';
import { workspaceForEmail } from './domains';
import { adoptedByScim, identityBelongsTo, memberForIdentity } from './identities';
import type { RedirectRequest, RedirectResponse, RedirectSignInMethod, SignInMethods, VerifiedIdentity } from './sign-in-methods';

export interface SsoDeps {
  orm: MikroORM;
  /** Seals the client secret and the attempts' secrets (KLAXON_SECRET). */
  sealer: Sealer;
  appUrl: string;
  methods: SignInMethods;
}

/** Where each protocol's IdP sends the browser back. */
export const returnPathOf = { oidc: '/auth/sso/oidc/callback', saml: '/auth/sso/saml/acs' } as const;

export interface Client {
  ip: string;
  userAgent?: string;
}

/** Where to send the browser, and the value of the cookie that binds the attempt to it. */
export interface StartedSignIn {
  redirectUrl: string;
  browserValue: string;
}

const notConfigured = () => notFound('single sign-on is not set up for this address: log in with your password');

/** The workspace's connection and its sign-in method, once its plan allows SSO. */
async function usableConnection(deps: SsoDeps, organizationId: string): Promise<{ connection: LoginConnection; method: RedirectSignInMethod }> {
  const connection = await connectionOfWorkspace(knexOf(deps.orm), deps.sealer, organizationId);
  if (!connection) throw notConfigured();
  assertSsoPlan(connection.plan);
  const method = deps.methods[connection.protocol];
  if (!method) throw forbidden(`signing in with ${connection.protocol.toUpperCase()} is not available yet`, 'sso_unavailable');
  return { connection, method };
}

async function begin(
  deps: SsoDeps,
  organizationId: string,
  purpose: AttemptPurpose,
  extra: { loginHint?: string; sessionId?: string },
): Promise<StartedSignIn> {
  const { connection, method } = await usableConnection(deps, organizationId);
  const request: RedirectRequest = {
    state: newState(),
    returnUrl: `${deps.appUrl}${returnPathOf[connection.protocol]}`,
    reauthenticate: purpose === 'step_up',
    loginHint: extra.loginHint,
  };
  const { redirectUrl, secrets } = await method.begin(connection, request);
  const { browserValue } = await recordAttempt(knexOf(deps.orm), deps.sealer, {
    state: request.state,
    organizationId,
    purpose,
    sessionId: extra.sessionId,
    secrets: { ...secrets, ...(request.loginHint && { login_hint: request.loginHint }) },
  });
  return { redirectUrl, browserValue };
}

/** `POST /auth/sso/start` (from Klaxon's own start page) with `email` or `organization_id`: the IdP's sign-in page for the workspace. */
export async function startSsoSignIn(deps: SsoDeps, input: { email?: string; organization_id?: string }): Promise<StartedSignIn> {
  if ((input.email === undefined) === (input.organization_id === undefined)) throw invalid('give email or organization_id (one of them)');
  const organizationId = input.organization_id ?? (await workspaceForEmail(knexOf(deps.orm), input.email!));
  if (!organizationId) throw notConfigured();
  return begin(deps, organizationId, 'login', { loginHint: input.email });
}

/** A signed-in member's re-authentication at their workspace's IdP (step-up for a person without a password). */
export async function startSsoStepUp(deps: SsoDeps, session: ActiveSession): Promise<StartedSignIn> {
  return begin(deps, session.organization.id, 'step_up', { sessionId: session.sessionId });
}

/** What finishing answered: a new session (a login), or the session stepped up. */
export type FinishedSignIn = { kind: 'login'; session: SessionView & { cookieValue: string } } | { kind: 'step_up'; freshUntil: string };

const stateInvalid = () =>
  invalid('this sign-in link is unknown, used or expired, or was started in another browser: start again from the login page', 'sso_state_invalid');

/**
 * The IdP's answer (the callback's URL, or the posted form): the attempt named by `state` is spent
 * first (once, this browser's, unexpired: else 400 `sso_state_invalid`), then the method checks the
 * answer (401 `sso_failed`), then the member is found or made (403 `sso_email_unverified`,
 * `sso_domain_not_allowed`). Records `sso.login` (or `sso.step_up`) in the audit log.
 */
export async function finishSsoSignIn(
  deps: SsoDeps,
  input: { state: string; response: RedirectResponse; browserValue: string | undefined; client: Client },
): Promise<FinishedSignIn> {
  const db = knexOf(deps.orm);
  const attempt = await spendAttempt(db, deps.sealer, input.state, input.browserValue);
  if (!attempt) throw stateInvalid();
  const { connection, method } = await usableConnection(deps, attempt.organizationId);
  const request: RedirectRequest = {
    state: input.state,
    returnUrl: `${deps.appUrl}${returnPathOf[connection.protocol]}`,
    reauthenticate: attempt.purpose === 'step_up',
    loginHint: attempt.secrets.login_hint,
  };
  const identity = await method.finish(connection, input.response, request, attempt.secrets);
  if (attempt.purpose === 'step_up') return stepUpWith(deps, attempt.sessionId, connection, identity, input.client);
  const member = await memberForIdentity(db, connection, identity);
  const session = await openSignedInSession(
    deps.orm,
    { userId: member.userId, organizationId: connection.organizationId, method: connection.protocol, steppedUp: false },
    input.client,
  );
  await recordAudit(db, {
    organizationId: connection.organizationId,
    actor: { kind: 'user', userId: member.userId, email: member.email, ip: input.client.ip },
    action: 'sso.login',
    targetType: 'user',
    targetId: member.userId,
    details: { protocol: connection.protocol, issuer: identity.issuer, just_in_time: member.joined, ...(member.joined && { role: member.role }) },
  });
  return { kind: 'login', session };
}

/**
 * Marks the session that asked stepped up, when the IdP authenticated the same person again, just
 * now (its AuthnInstant or auth_time in the last 120 s: an IdP that ignored ForceAuthn or max_age
 * and reused an old sign-in does not count), through a link of this workspace.
 */
async function stepUpWith(
  deps: SsoDeps,
  sessionId: string | null,
  connection: LoginConnection,
  identity: VerifiedIdentity,
  client: Client,
): Promise<FinishedSignIn> {
  const db = knexOf(deps.orm);
  const session = sessionId
    ? ((await db('sessions as s')
        .join('users as u', 'u.id', 's.user_id')
        .select('s.user_id', 'u.email')
        .where({ 's.id': sessionId, 's.organization_id': connection.organizationId })
        .whereNull('s.revoked_at')
        .first()) as { user_id: string; email: string } | undefined)
    : undefined;
  if (!session) throw stateInvalid();
  const now = new Date();
  if (!isFreshIdpAuthentication(identity.authenticatedAt, now))
    throw forbidden(
      'the identity provider did not sign you in again just now (its sign-in is not from the last 2 minutes): sign in there again and retry',
      'step_up_failed',
    );
  if (
    !(await identityBelongsTo(db, connection.organizationId, session.user_id, identity)) ||
    (await adoptedByScim(db, connection.organizationId, session.user_id))
  )
    throw forbidden('the identity provider signed in someone else than the person of this session', 'step_up_failed');
  await db('sessions').update({ stepped_up_at: now }).where({ id: sessionId });
  await recordAudit(db, {
    organizationId: connection.organizationId,
    actor: { kind: 'user', userId: session.user_id, email: session.email, ip: client.ip },
    action: 'sso.step_up',
    targetType: 'user',
    targetId: session.user_id,
    details: { protocol: connection.protocol },
  });
  return { kind: 'step_up', freshUntil: new Date(now.getTime() + STEP_UP_FRESH_MS).toISOString() };
}
