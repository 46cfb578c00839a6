import { z } from 'zod';
import { knexOf } from '../../../src/db/knex';
import { requireStepUp } from '../../../src/services/accounts';
import {
  assertSsoPlan,
  connectionOfWorkspace,
  deleteSsoSettings,
  saveSsoSettings,
  ssoSettingsOf,
  startSsoStepUp,
  verifySsoDomain,
  type SsoDeps,
  type SsoSettingsInput,
} from '../../../src/services/sso';
import { forbidden, invalid } from '../../../src/services/errors';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, auditActorOf, authorizedActor, type AdminDeps } from '../admin-kit';
import { sessionOf } from '../guards';
import { setSsoBrowserCookie } from '../../sso/cookies';
import { STEP_UP_ERRORS, stepUpDepsOf } from './security';
import { DomainParams, SsoBody, SsoSettingsSchema, VerifiedDomainSchema } from './sso-schemas';

const PLAN_403 = `${ADMIN_ERRORS[403]} (a plan without single sign-on: only BUSINESS has it)`;

/** The settings the body carries, without a step-up factor riding along. */
const settingsOf = (body: z.infer<typeof SsoBody>): SsoSettingsInput => {
  const { password: _p, totp_code: _t, recovery_code: _r, ...settings } = body;
  return settings as SsoSettingsInput;
};

/** What the SSO use cases need from the dashboard's dependencies. */
export const ssoDepsOf = (deps: AdminDeps): SsoDeps => ({ orm: deps.orm, sealer: deps.webhooks.sealer, appUrl: deps.appUrl, methods: deps.ssoMethods });

/** The workspace's single sign-on settings under /api (docs/sso.md): Billing Owners and Account Admins, BUSINESS only. */
export function ssoRoutes(deps: AdminDeps): RouteSpec[] {
  const stepUpDeps = stepUpDepsOf(deps);
  const sso = ssoDepsOf(deps);
  /** The signed-in manager of SSO, on a plan that has it. */
  const manager = async (ctx: Parameters<RouteSpec['handler']>[0]) => {
    const actor = await authorizedActor(deps.orm, ctx, 'sso.manage');
    assertSsoPlan(sessionOf(ctx as never).organization.plan);
    return actor;
  };
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/sso',
      summary: "The workspace's single sign-on settings; never the client secret (Billing Owner, Account Admin; BUSINESS)",
      operationId: 'getSso',
      success: { status: 200, description: 'the settings (`client_secret_set` says whether a secret is stored)', schema: SsoSettingsSchema },
      errors: { ...ADMIN_ERRORS, 403: PLAN_403, 404: 'single sign-on is not set up' },
      handler: async (ctx) => {
        const actor = await manager(ctx);
        return { data: await ssoSettingsOf(knexOf(deps.orm), actor.organizationId) };
      },
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/sso',
      summary: 'Set up or replace single sign-on: OIDC or SAML, email domains, default role, require_sso (needs a step-up)',
      operationId: 'putSso',
      body: SsoBody,
      success: { status: 200, description: 'the settings as stored (no secret)', schema: SsoSettingsSchema },
      errors: { ...STEP_UP_ERRORS, 403: `${STEP_UP_ERRORS[403]}; ${PLAN_403}`, 409: 'sso_domain_taken: a domain routes to another workspace' },
      handler: async (ctx, { body }) => {
        const actor = await manager(ctx);
        await requireStepUp(stepUpDeps, sessionOf(ctx as never), body, actor.ip);
        const view = await saveSsoSettings(knexOf(deps.orm), deps.webhooks.sealer, actor.organizationId, settingsOf(body), {
          actor: auditActorOf(actor),
          userId: actor.userId,
        });
        return { data: view, message: 'single sign-on settings saved' };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/sso',
      summary: 'Turn single sign-on off: settings and domains removed, members keep their accounts (needs a step-up in the last 5 minutes)',
      operationId: 'deleteSso',
      success: { status: 200, description: 'removed', schema: z.object({ deleted: z.literal(true) }) },
      errors: { ...STEP_UP_ERRORS, 403: `${STEP_UP_ERRORS[403]}; ${PLAN_403}`, 404: 'single sign-on is not set up' },
      handler: async (ctx) => {
        const actor = await manager(ctx);
        await requireStepUp(stepUpDeps, sessionOf(ctx as never), {}, actor.ip);
        await deleteSsoSettings(knexOf(deps.orm), actor.organizationId, auditActorOf(actor));
        return { data: { deleted: true }, message: 'single sign-on turned off' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/sso/test',
      summary: 'Test the connection before saving: discovers the OIDC issuer with these settings; nothing is stored',
      operationId: 'testSso',
      body: SsoBody,
      success: { status: 200, description: 'what the identity provider answered', schema: z.record(z.string(), z.unknown()) },
      errors: {
        ...ADMIN_ERRORS,
        400: 'invalid_request: a field is missing or wrong, named first in `error` (`issuer: must be an https:// URL`); so is an OIDC client secret neither typed nor stored',
        401: 'sso_failed: the identity provider could not be reached or answered wrongly (the reason is given)',
        403: PLAN_403,
      },
      handler: async (ctx, { body }) => {
        const actor = await manager(ctx);
        const settings = settingsOf(body);
        const method = deps.ssoMethods[settings.type];
        if (!method) throw forbidden(`testing ${settings.type.toUpperCase()} settings is not available yet`, 'sso_unavailable');
        const { organization } = sessionOf(ctx as never);
        const stored = settings.type === 'oidc' && !settings.client_secret ? await storedSecret(sso, actor.organizationId) : undefined;
        // Nothing typed and nothing stored: the form's field is what is missing (not the IdP failing).
        if (settings.type === 'oidc' && !settings.client_secret && !stored) throw invalid('client_secret: is required (none is stored yet)');
        const found = await method.test({
          organizationId: actor.organizationId,
          plan: organization.plan,
          protocol: settings.type,
          settings: settings as unknown as Record<string, string>,
          clientSecret: settings.type === 'oidc' ? (settings.client_secret ?? stored) : undefined,
          defaultRole: settings.default_role,
          requireSso: settings.require_sso,
          provenDomains: [],
          version: 'test',
        });
        return { data: found, message: 'the identity provider answered' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/sso/domains/{domain}/verify',
      summary: "Prove a listed email domain: looks up its DNS TXT record `klaxon-verification=<token>` (GET /api/sso's `txt_record`)",
      operationId: 'verifySsoDomain',
      params: DomainParams,
      success: { status: 200, description: 'the domain is proven: it now routes logins and admits people to this workspace', schema: VerifiedDomainSchema },
      errors: {
        ...ADMIN_ERRORS,
        403: PLAN_403,
        404: 'the workspace does not list this domain',
        409: 'domain_unverified: the TXT record (named) is not there yet; sso_domain_taken: another workspace proved the domain first',
      },
      handler: async (ctx, { params }) => {
        const actor = await manager(ctx);
        const verified = await verifySsoDomain(knexOf(deps.orm), deps.ssoDomainTxt, actor.organizationId, params.domain, auditActorOf(actor));
        return { data: verified, message: `${verified.domain} is proven` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/sso/step-up',
      summary: "Step up by signing in again at the workspace's identity provider (max_age=0): answers the URL to open",
      operationId: 'ssoStepUp',
      success: {
        status: 200,
        description: 'open `redirect_url` in this browser; after the IdP the session is stepped up for 5 minutes and the browser lands on /',
        schema: z.object({ redirect_url: z.string() }),
      },
      errors: { ...ADMIN_ERRORS, 403: PLAN_403, 404: 'single sign-on is not set up' },
      handler: async (ctx) => {
        const started = await startSsoStepUp(sso, sessionOf(ctx as never));
        setSsoBrowserCookie(ctx as never, started.browserValue);
        return { data: { redirect_url: started.redirectUrl }, message: 'open redirect_url to confirm it is you' };
      },
    }),
  ];
}

/** The stored client secret, for a test that leaves it out. */
async function storedSecret(sso: SsoDeps, organizationId: string): Promise<string | undefined> {
  return (await connectionOfWorkspace(knexOf(sso.orm), sso.sealer, organizationId))?.clientSecret;
}
