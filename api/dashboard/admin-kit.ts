import type { StormSetting } from '../../src/domain/grouping/storm';
import type { Client } from '@temporalio/client';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ParameterizedContext } from 'koa';
import { z } from 'zod';
import { can, type Action } from '../../src/domain/permissions';
import type { Role } from '../../src/domain/roles';
import { knexOf } from '../../src/db/knex';
import type { AccountMailer } from '../../src/services/accounts';
import type { AuditActor } from '../../src/services/audit';
import type { SignInMethods, TxtLookup } from '../../src/services/sso';
import { forbidden } from '../../src/services/errors';
import type { InboundWebhookDeps } from '../../src/services/inbound-webhooks';
import type { ChannelSender, ChannelSenders } from '../../src/integrations/types';
import type { NotifyConfig } from '../../src/config';
import type { ServingHealth } from '../../src/health/serving';
import type { IncidentLiveUpdates } from '../../src/services/live-updates/incident-live-updates';
import type { Throttles } from '../../src/services/throttles';
import { sessionOf } from './guards';

/** What the administration routes under /api are built over. */
export interface AdminDeps {
  orm: MikroORM;
  appUrl: string;
  /** Account emails: invitations, plan usage, … (the email channel, or the dev inbox). */
  mailer: AccountMailer;
  /** Login, step-up, password, sign-up, verification-resend, test-notification and test-send throttles, counted in Postgres. */
  throttles: Throttles;
  /** STORM_GUARD: the storm guard of sources that set none (docs/grouping.md); null or absent: off. */
  stormGuard?: StormSetting | null;
  /** PLAN_SELF_SERVE: a Billing Owner may raise the plan from the dashboard (no billing provider takes payment). */
  planSelfServe?: boolean;
  /** Alert sources (webhooks): their sealer and public URLs. */
  webhooks: InboundWebhookDeps;
  /** The SMS channel: verification codes for new phone numbers (a provider, or the dev inbox). */
  sms: ChannelSender;
  /** Every channel's sender (a provider, or the dev inbox), made on first use: test notifications. */
  senders: ChannelSenders;
  /** Which providers are configured (the rest deliver to the dev inbox): /api/status. */
  notify: NotifyConfig;
  /** Postgres, Temporal and a polling worker reachable: /api/status. */
  servingHealth: () => Promise<ServingHealth>;
  /**
   * WATCHDOG_URL set: the canary's interval and when this process's watchdog started, so /api/status
   * says when the canary has not passed for two intervals (docs/reliability.md). Absent: no watchdog.
   */
  watchdog?: { intervalSeconds: number; startedAt: Date };
  /** Heartbeats are Temporal workflows: pausing one signals it. */
  temporal?: Client;
  taskQueue?: string;
  /** Show the dev inbox at `GET /api/dev/inbox` (klaxon start on a loopback APP_URL only). */
  devInbox?: boolean;
  /** Live incident events for `GET /api/events` (one LISTEN connection per process). */
  events?: IncidentLiveUpdates;
  /** Lifecycle operations from the dashboard go through the incident workflows as the customer API's do. */
  incidents?: { autoCloseHours?: number; eagerClient?: Client; temporalUiUrl: string; namespace: string };
  /** HTTP monitors: private targets allowed? the interval floor (MONITOR_ALLOW_PRIVATE, MONITOR_MIN_INTERVAL_SECONDS). */
  monitors?: { allowPrivate: boolean; minIntervalSeconds: number };
  /** The shared SSRF guard: private targets allowed? (ALLOW_PRIVATE_TARGETS; metadata endpoints never). */
  targets?: { allowPrivate: boolean };
  /** How long a paging drill's acknowledgement counts (DRILL_ACK_WINDOW_SECONDS; 600 when absent). */
  drillAckWindowSeconds?: number;
  /**
   * A key derived from KLAXON_SECRET for one purpose (HKDF-SHA256, salt "klaxon", the purpose as
   * info): what an integration's routes sign with (the Slack install's state), never the secret itself.
   */
  deriveKey: (purpose: string) => Buffer;
  /** Single sign-on's redirect methods (OIDC; SAML later), their IdP requests through the SSRF guard (docs/sso.md). */
  ssoMethods: SignInMethods;
  /** DNS TXT lookups for single sign-on's domain proof (DNS_RESOLVERS, else the system's resolvers). */
  ssoDomainTxt: TxtLookup;
}

/** The signed-in member acting on their session's workspace. */
export interface AdminActor {
  organizationId: string;
  userId: string;
  email: string;
  role: Role;
  verified: boolean;
  sessionId: string;
  ip: string;
}

export const adminActorOf = (ctx: ParameterizedContext): AdminActor => {
  const s = sessionOf(ctx as never);
  return {
    organizationId: s.organization.id,
    userId: s.user.id,
    email: s.user.email,
    role: s.role,
    verified: s.user.verified,
    sessionId: s.sessionId,
    ip: ctx.ip,
  };
};

/** The actor as the audit log records them. */
export const auditActorOf = (actor: AdminActor): AuditActor => ({ kind: 'user', userId: actor.userId, email: actor.email, ip: actor.ip });

const ROLE_NAMES: Record<Role, string> = {
  BILLING_OWNER: 'a Billing Owner',
  ACCOUNT_ADMIN: 'an Account Admin',
  TEAM_MANAGER: 'a Team Manager',
  MEMBER: 'a Member',
  STAKEHOLDER: 'a Stakeholder',
};

/** True when the actor is in the team. */
export async function inTeam(orm: MikroORM, userId: string, teamId: string | null | undefined): Promise<boolean> {
  if (!teamId) return false;
  return Boolean(await knexOf(orm)('team_members').where({ team_id: teamId, user_id: userId }).first('team_id'));
}

/**
 * Refuses (403 `forbidden`) unless the actor's role may take the action (src/domain/permissions.ts);
 * `owningTeamId` names the team that owns the object of a team-scoped action.
 */
export async function authorize(orm: MikroORM, actor: AdminActor, action: Action, owningTeamId?: string | null): Promise<void> {
  const inOwningTeam = owningTeamId !== undefined && actor.role === 'TEAM_MANAGER' ? await inTeam(orm, actor.userId, owningTeamId) : false;
  if (!can(actor.role, action, { inOwningTeam })) {
    throw forbidden(`${ROLE_NAMES[actor.role]} may not do this (${action})`, 'forbidden');
  }
}

/** The signed-in member, once their role may take the action (403 `forbidden` otherwise). */
export async function authorizedActor(orm: MikroORM, ctx: ParameterizedContext, action: Action, owningTeamId?: string | null): Promise<AdminActor> {
  const actor = adminActorOf(ctx);
  await authorize(orm, actor, action, owningTeamId);
  return actor;
}

/** Unverified accounts can log in but cannot create tokens or invite (issue 13). */
export function requireVerified(actor: AdminActor, what: string): void {
  if (!actor.verified) throw forbidden(`verify your email address before you ${what}: open the link we emailed, or ask for a new one`, 'email_unverified');
}

/** Error statuses every administration route can answer. */
export const ADMIN_ERRORS = {
  400: 'invalid input: the field is named in `error`',
  401: 'not signed in, or the session expired',
  403: 'csrf_failed (missing or wrong X-CSRF-Token, or a cross-site Origin); forbidden (the role may not); plan_limit_reached',
  503: 'service_unavailable: the database or Temporal cannot be reached; nothing was changed',
} as const;

export const IdParams = z.object({ id: z.uuid('must be a UUID') });
export const PageQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict();

/** A page's metadata in the dashboard envelope. */
export const pageMeta = (total: number, page: { limit: number; offset: number }) => ({ total, limit: page.limit, offset: page.offset });
