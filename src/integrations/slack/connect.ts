/**
 * Connecting and disconnecting a workspace's Slack (docs/chat.md, "Connecting Slack"): the
 * install link with its signed state, the OAuth callback that spends the state once and keeps
 * the bot token sealed, and the disconnect that forgets the token and every service's channel.
 * The code and the token are never logged, put in a URL or an error.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { can } from '../../domain/permissions';
import { PLAN_LIMITS } from '../../domain/plans';
import { knexOf } from '../../db/knex';
import type { SlackConfig } from './config';
import { SLACK_BOT_SCOPES, slackRedirectUri } from './manifest';
import { readSlackState, signSlackState, SLACK_STATE_TTL_MS, type SlackStateBinding } from './oauth-state';
import { slackClient, slackErrorCode } from './web-api';
import { sessionFromCookie, type ActiveSession } from '../../services/accounts';
import { recordAudit, type AuditActor } from '../../services/audit';
import { DomainError } from '../../services/errors';
import type { Sealer } from '../../services/sealing/seal';
import { Counter } from '../../services/throttles/counter';
import { assertChatPlan } from '../../services/chat/chat-plan';
import { clearProviderDestinations } from '../../services/chat/service-chat';
import { deleteSlackInstallation, findSlackInstallation, saveSlackInstallation } from './installations';
import { configuredSlack } from './workspace';

export interface SlackConnectDeps {
  orm: MikroORM;
  /** Seals the bot token (KLAXON_SECRET). */
  sealer: Sealer;
  slack: SlackConfig | undefined;
  /** APP_URL: the redirect URI is `${appUrl}/hooks/slack/oauth`. */
  appUrl: string;
  /** Signs the state (slackStateKey(KLAXON_SECRET)). */
  stateKey: Buffer;
}

/**
 * Where "Connect Slack" sends the browser: Slack's authorize page with the app's client id, the
 * bot scopes, the redirect URI and a state bound to this session. 409 `slack_not_configured`,
 * 403 `plan_limit_reached` (the caller checked `integrations.manage`).
 */
export async function slackInstallUrl(deps: SlackConnectDeps, who: SlackStateBinding): Promise<string> {
  const slack = configuredSlack(deps.slack);
  await assertChatPlan(knexOf(deps.orm), who.organizationId);
  const url = new URL(slack.authorizeUrl);
  url.searchParams.set('client_id', slack.clientId);
  url.searchParams.set('scope', SLACK_BOT_SCOPES.join(','));
  url.searchParams.set('redirect_uri', slackRedirectUri(deps.appUrl));
  url.searchParams.set('state', signSlackState(deps.stateKey, who));
  return url.toString();
}

/** How the callback ended: connected, or why not (the `reason` of the redirect). */
export type SlackInstallOutcome = { connected: true } | { connected: false; reason: string };

/** What the callback was given: Slack's query and the browser's session cookie. */
export interface SlackCallback {
  code?: string;
  state?: string;
  /** Slack's `error` (`access_denied` when the person cancelled). */
  error?: string;
  cookie?: string;
  ip?: string;
}

const failed = (reason: string): SlackInstallOutcome => ({ connected: false, reason: /^[a-z0-9_]{1,64}$/.test(reason) ? reason : 'slack_error' });

/** The session of the callback's cookie, or undefined when there is none (signed out, expired). */
async function sessionOf(orm: MikroORM, cookie: string | undefined): Promise<ActiveSession | undefined> {
  try {
    return await sessionFromCookie(orm, cookie);
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'unauthorized') return undefined;
    throw err;
  }
}

/**
 * Spends a state's nonce: true the first time. Counted in the shared throttle table (one point
 * per nonce per state lifetime), so every API process agrees and a replay within the state's
 * 10 minutes is refused; after them the signature's expiry refuses it.
 */
const spendNonce = async (orm: MikroORM, nonce: string): Promise<boolean> =>
  (await new Counter(knexOf(orm), 'slack-oauth-state', 1, SLACK_STATE_TTL_MS / 1000).take(nonce)) === null;

interface OAuthAccess {
  access_token?: string;
  token_type?: string;
  scope?: string;
  bot_user_id?: string;
  team?: { id?: string; name?: string } | null;
}

/**
 * `GET /hooks/slack/oauth`: checks the state (signature, expiry, this session, unspent, then
 * spends it), trades the code for the bot token (`oauth.v2.access`) and saves the installation
 * with the token sealed, with an audit entry. Every refusal is an outcome, never a throw with the code in it.
 */
export async function completeSlackInstall(deps: SlackConnectDeps, input: SlackCallback): Promise<SlackInstallOutcome> {
  if (input.error) return failed(input.error);
  if (!deps.slack) return failed('slack_not_configured');
  const session = await sessionOf(deps.orm, input.cookie);
  if (!session || !input.state) return failed('state');
  const who = { organizationId: session.organization.id, userId: session.user.id, sessionId: session.sessionId };
  const state = readSlackState(deps.stateKey, input.state, who);
  if (!state || !(await spendNonce(deps.orm, state.nonce))) return failed('state');
  if (!can(session.role, 'integrations.manage')) return failed('forbidden');
  if (!PLAN_LIMITS[session.organization.plan].chat) return failed('plan_limit_reached');
  if (!input.code || input.code.length > 500) return failed('invalid_code');

  let access: OAuthAccess;
  try {
    access = (await slackClient(deps.slack.apiUrl).oauth.v2.access({
      client_id: deps.slack.clientId,
      client_secret: deps.slack.clientSecret,
      code: input.code,
      redirect_uri: slackRedirectUri(deps.appUrl),
    })) as OAuthAccess;
  } catch (err) {
    return failed(slackErrorCode(err));
  }
  const { access_token: token, team, bot_user_id: botUserId } = access;
  if (!token || access.token_type !== 'bot' || !team?.id || !botUserId) return failed('unexpected_answer');

  const install = {
    organizationId: who.organizationId,
    slackTeamId: team.id.slice(0, 32),
    slackTeamName: (team.name ?? team.id).slice(0, 255),
    botUserId: botUserId.slice(0, 32),
    botToken: token,
    scopes: (access.scope ?? '').slice(0, 2000),
    installedBy: who.userId,
  };
  await saveSlackInstallation(deps.orm, deps.sealer, install);
  const actor: AuditActor = { kind: 'user', userId: session.user.id, email: session.user.email, ip: input.ip };
  await recordAudit(deps.orm, {
    organizationId: who.organizationId,
    actor,
    action: 'slack.connect',
    targetType: 'slack_installation',
    targetId: install.slackTeamId,
    details: { slack_team_id: install.slackTeamId, slack_team_name: install.slackTeamName, scopes: install.scopes },
  });
  return { connected: true };
}

/**
 * Forgets the workspace's Slack: the installation (its token) and every service's channel, with
 * an audit entry. Idempotent: false when nothing was connected. The token is not revoked in
 * Slack, since another Klaxon workspace may share the same Slack app installation; removing the app in Slack revokes it.
 */
export async function disconnectSlack(orm: MikroORM, actor: { organizationId: string; audit: AuditActor }): Promise<boolean> {
  const installation = await findSlackInstallation(orm, actor.organizationId);
  if (!installation) return false;
  await deleteSlackInstallation(orm, actor.organizationId);
  await clearProviderDestinations(orm, actor.organizationId, 'slack');
  await recordAudit(orm, {
    organizationId: actor.organizationId,
    actor: actor.audit,
    action: 'slack.disconnect',
    targetType: 'slack_installation',
    targetId: installation.slackTeamId,
    details: { slack_team_id: installation.slackTeamId, slack_team_name: installation.slackTeamName },
  });
  return true;
}
