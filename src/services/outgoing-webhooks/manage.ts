import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { isIncidentEventType, INCIDENT_EVENT_TYPES, type IncidentEventType } from '../../domain/incident-events';
import { isUuid } from '../../domain/ids';
import { can } from '../../domain/permissions';
import { PLAN_LIMITS, type Plan } from '../../domain/plans';
import type { Role } from '../../domain/roles';
import { checkTargetUrl } from '../../domain/targets';
import { knexOf } from '../../db/knex';
import { recordAudit, type AuditActor } from '../audit';
import { forbidden, invalid, notFound } from '../errors';
import type { Sealer } from '../sealing/seal';
import { outgoingWebhookJson, type OutgoingWebhookJson, type OutgoingWebhookRow } from './views';
import { FEED_CONSUMER } from './fan-out';

/** What managing subscriptions needs: the database, the sealer of their secrets, the SSRF setting. */
export interface OutgoingWebhookDeps {
  orm: MikroORM;
  /** src/services/sealing/seal.ts under KLAXON_SECRET: the delivery engine opens what this seals. */
  sealer: Sealer;
  /** ALLOW_PRIVATE_TARGETS: private addresses (and plain http) allowed; metadata endpoints never. */
  allowPrivate: boolean;
}

/** The member acting, and how the audit log names them. */
export interface OutgoingWebhookActor {
  organizationId: string;
  userId: string;
  role: Role;
  audit: AuditActor;
}

/** A subscription's settings as given (create: all but url optional; update: only those changing). */
export interface SubscriptionSettings {
  url: string;
  description: string | null;
  /** null: every event type. */
  eventTypes: IncidentEventType[] | null;
  /** null (or empty): every service. */
  serviceIds: string[] | null;
  enabled: boolean;
}

/** Caps on every field (the route's zod schema says the same to clients). */
export const MAX_DESCRIPTION = 500;
export const MAX_SERVICE_IDS = 100;

const TABLE = 'outgoing_webhooks';
const DELIVERIES = 'feed_deliveries';

/** A new signing secret: `whsec_` and 32 random bytes in base64 (Standard Webhooks). */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

const ROLE_REFUSAL = 'outgoing webhooks need a Billing Owner, an Account Admin, or a Team Manager (for subscriptions limited to their teams’ services)';

/** Refuses (403 `forbidden`) a role that may not manage subscriptions at all (a Member). */
export function assertMayManageAny(actor: Pick<OutgoingWebhookActor, 'role'>): void {
  if (!can(actor.role, 'outgoing_webhooks.manage', { inOwningTeam: true })) throw forbidden(`${ROLE_REFUSAL} (outgoing_webhooks.manage)`, 'forbidden');
}

/** The teams a member is in. */
const teamsOf = async (db: Knex, userId: string): Promise<Set<string>> => new Set<string>(await db('team_members').where({ user_id: userId }).pluck('team_id'));

/**
 * Whether the actor may manage a subscription with these services: Billing Owners and Account
 * Admins any; a Team Manager one limited to services (non-empty) every one of which a team of
 * theirs owns.
 */
async function scopeAllows(
  db: Knex,
  actor: OutgoingWebhookActor,
  serviceIds: readonly string[] | null,
  known?: { teams: Set<string>; owners: Map<string, string | null> },
): Promise<boolean> {
  if (can(actor.role, 'outgoing_webhooks.manage')) return true;
  if (actor.role !== 'TEAM_MANAGER' || !serviceIds?.length) return false;
  const { teams, owners } = known ?? { teams: await teamsOf(db, actor.userId), owners: await ownersOf(db, actor.organizationId, serviceIds) };
  return serviceIds.every((id) => {
    const team = owners.get(id);
    return team !== undefined && team !== null && teams.has(team);
  });
}

/** The team owning each service of the workspace (of `ids`, or all). */
async function ownersOf(db: Knex, organizationId: string, ids?: readonly string[]): Promise<Map<string, string | null>> {
  const q = db('services').select('id', 'team_id').where({ organization_id: organizationId });
  if (ids) q.whereIn('id', [...ids]);
  return new Map((await q).map((s: { id: string; team_id: string | null }) => [s.id, s.team_id]));
}

async function assertScope(db: Knex, actor: OutgoingWebhookActor, serviceIds: readonly string[] | null): Promise<void> {
  if (!(await scopeAllows(db, actor, serviceIds))) {
    throw forbidden('a Team Manager may manage only subscriptions limited to services their teams own (service_ids, every one of them)', 'forbidden');
  }
}

/** Refuses a URL the guard refuses as written (400 naming `url`); names are checked again at each delivery. */
function assertUrl(url: string, allowPrivate: boolean): void {
  const verdict = checkTargetUrl(url, { allowPrivate, who: 'outgoing webhooks reach' });
  if (!verdict.ok) throw invalid(`url: ${verdict.message}`);
}

/** Event types as stored: null for all; each one known (400 naming `event_types`), without repeats. */
function eventTypesOf(types: readonly string[] | null): IncidentEventType[] | null {
  if (types === null) return null;
  const unknown = types.find((t) => !isIncidentEventType(t));
  if (unknown !== undefined) throw invalid(`event_types: unknown event type (known: ${INCIDENT_EVENT_TYPES.join(', ')})`);
  if (!types.length) throw invalid('event_types: must list at least one event type (leave it out, or null, for all)');
  return [...new Set(types as IncidentEventType[])];
}

/** Service ids as stored: null for all (none given or empty); each a service of the workspace (400 naming `service_ids`). */
async function serviceIdsOf(db: Knex, organizationId: string, ids: readonly string[] | null): Promise<string[] | null> {
  if (!ids?.length) return null;
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (unique.length > MAX_SERVICE_IDS) throw invalid(`service_ids: must list at most ${MAX_SERVICE_IDS} services`);
  if (unique.some((id) => !isUuid(id))) throw invalid('service_ids: must be UUIDs');
  const found = new Set<string>(await db('services').where({ organization_id: organizationId }).whereIn('id', unique).pluck('id'));
  const missing = unique.find((id) => !found.has(id));
  if (missing) throw invalid(`service_ids: no service ${missing} in this workspace`);
  return unique;
}

/** A URL as the audit log records it: no query or fragment (either may hold a token). */
const auditUrl = (url: string): string => {
  const u = new URL(url);
  return u.origin + u.pathname;
};

/** The row of one subscription of the workspace; another workspace's, or a bad id, is not found. */
export async function subscriptionRow(db: Knex, organizationId: string, id: string): Promise<OutgoingWebhookRow> {
  const row = isUuid(id) ? await db(TABLE).where({ organization_id: organizationId, id }).first() : undefined;
  if (!row) throw notFound(`outgoing webhook ${id} not found`);
  return row as OutgoingWebhookRow;
}

/**
 * The subscription, once the actor may manage it (403 for a Member, and for a Team Manager when
 * it is not limited to their teams' services); 404 when it is not of the workspace.
 */
export async function managedSubscription(db: Knex, actor: OutgoingWebhookActor, id: string): Promise<OutgoingWebhookRow> {
  assertMayManageAny(actor);
  const row = await subscriptionRow(db, actor.organizationId, id);
  await assertScope(db, actor, row.service_ids);
  return row;
}

/** The subscriptions the actor may manage (a Team Manager sees only theirs), oldest first. */
export async function listOutgoingWebhooks(deps: Pick<OutgoingWebhookDeps, 'orm'>, actor: OutgoingWebhookActor): Promise<OutgoingWebhookJson[]> {
  assertMayManageAny(actor);
  const db = knexOf(deps.orm);
  const rows: OutgoingWebhookRow[] = await db(TABLE)
    .where({ organization_id: actor.organizationId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  // One read of the member's teams and the services' owners for the whole list.
  const known = actor.role === 'TEAM_MANAGER' ? { teams: await teamsOf(db, actor.userId), owners: await ownersOf(db, actor.organizationId) } : undefined;
  const visible: OutgoingWebhookRow[] = [];
  for (const row of rows) if (await scopeAllows(db, actor, row.service_ids, known)) visible.push(row);
  return visible.map(outgoingWebhookJson);
}

export async function getOutgoingWebhook(deps: Pick<OutgoingWebhookDeps, 'orm'>, actor: OutgoingWebhookActor, id: string): Promise<OutgoingWebhookJson> {
  return outgoingWebhookJson(await managedSubscription(knexOf(deps.orm), actor, id));
}

/**
 * The plan's gate, in the caller's transaction with the workspace row locked (two creations at
 * once cannot both take the last place): FREE has none (403 `plan_limit_reached`), the others a
 * maximum (PLAN_LIMITS.outgoingWebhooks).
 */
export async function assertPlanAllows(trx: Knex, organizationId: string, adding: number): Promise<void> {
  const org = await trx('organizations').select('plan').where({ id: organizationId }).forUpdate().first();
  if (!org) throw notFound(`organization ${organizationId} not found`);
  const plan = org.plan as Plan;
  const limit = PLAN_LIMITS[plan].outgoingWebhooks;
  if (limit === 0) throw forbidden(`the ${plan} plan does not include outgoing webhooks (STARTER and above do)`, 'plan_limit_reached');
  if (adding === 0) return;
  const [{ n }] = await trx(TABLE).count({ n: '*' }).where({ organization_id: organizationId });
  if (Number(n) + adding > limit) throw forbidden(`the ${plan} plan allows ${limit} outgoing webhooks; this workspace has ${n}`, 'plan_limit_reached');
}

/**
 * Creates a subscription: its URL checked by the shared guard, its event types and services
 * checked, the plan's gate passed, its signing secret made and stored sealed. The secret is in
 * this answer only. Nothing is stored when any check fails.
 */
export async function createOutgoingWebhook(
  deps: OutgoingWebhookDeps,
  actor: OutgoingWebhookActor,
  input: Pick<SubscriptionSettings, 'url'> & Partial<SubscriptionSettings>,
): Promise<OutgoingWebhookJson & { secret: string }> {
  assertMayManageAny(actor);
  const db = knexOf(deps.orm);
  assertUrl(input.url, deps.allowPrivate);
  const eventTypes = eventTypesOf(input.eventTypes ?? null);
  const serviceIds = await serviceIdsOf(db, actor.organizationId, input.serviceIds ?? null);
  await assertScope(db, actor, serviceIds);
  const secret = newSigningSecret();
  const now = new Date();
  const row = {
    id: randomUUID(),
    organization_id: actor.organizationId,
    url: input.url,
    description: input.description ?? null,
    event_types: eventTypes === null ? null : JSON.stringify(eventTypes),
    service_ids: serviceIds === null ? null : JSON.stringify(serviceIds),
    enabled: input.enabled ?? true,
    secret_sealed: deps.sealer.seal(secret),
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
  };
  await db.transaction(async (trx) => {
    await assertPlanAllows(trx, actor.organizationId, 1);
    await trx(TABLE).insert(row);
    await recordAudit(trx, {
      organizationId: actor.organizationId,
      actor: actor.audit,
      action: 'outgoing_webhook.create',
      targetType: 'outgoing_webhook',
      targetId: row.id,
      details: { url: auditUrl(row.url), event_types: eventTypes, service_ids: serviceIds, enabled: row.enabled },
    });
  });
  return { ...outgoingWebhookJson({ ...row, event_types: eventTypes, service_ids: serviceIds, failing_since: null, disabled_reason: null }), secret };
}

/**
 * Changes some of a subscription's settings (the secret never changes here). A Team Manager must
 * be allowed on it before and after. Enabling it again clears why the system disabled it.
 */
export async function updateOutgoingWebhook(
  deps: OutgoingWebhookDeps,
  actor: OutgoingWebhookActor,
  id: string,
  changes: Partial<SubscriptionSettings>,
): Promise<OutgoingWebhookJson> {
  const db = knexOf(deps.orm);
  const before = await managedSubscription(db, actor, id);
  const patch: Record<string, unknown> = {};
  const details: Record<string, unknown> = {};
  if (changes.url !== undefined) {
    assertUrl(changes.url, deps.allowPrivate);
    patch.url = changes.url;
    details.url = auditUrl(changes.url);
  }
  if (changes.description !== undefined) {
    patch.description = changes.description;
    details.description_changed = true;
  }
  if (changes.eventTypes !== undefined) {
    const types = eventTypesOf(changes.eventTypes);
    patch.event_types = types === null ? null : JSON.stringify(types);
    details.event_types = types;
  }
  let serviceIds = before.service_ids;
  if (changes.serviceIds !== undefined) {
    serviceIds = await serviceIdsOf(db, actor.organizationId, changes.serviceIds);
    await assertScope(db, actor, serviceIds);
    patch.service_ids = serviceIds === null ? null : JSON.stringify(serviceIds);
    details.service_ids = serviceIds;
  }
  if (changes.enabled !== undefined) {
    patch.enabled = changes.enabled;
    details.enabled = changes.enabled;
    if (changes.enabled && !before.enabled) Object.assign(patch, { disabled_reason: null, failing_since: null });
  }
  await db.transaction(async (trx) => {
    // A FREE workspace (after a downgrade) may still switch its subscriptions off, never on.
    if (changes.enabled === true && !before.enabled) await assertPlanAllows(trx, actor.organizationId, 0);
    await trx(TABLE)
      .where({ id: before.id })
      .update({ ...patch, updated_at: new Date() });
    await recordAudit(trx, {
      organizationId: actor.organizationId,
      actor: actor.audit,
      action: 'outgoing_webhook.update',
      targetType: 'outgoing_webhook',
      targetId: before.id,
      details,
    });
  });
  return outgoingWebhookJson(await subscriptionRow(db, actor.organizationId, before.id));
}

/** Deletes a subscription and its deliveries (no foreign keys: removed here, in one transaction). */
export async function deleteOutgoingWebhook(
  deps: Pick<OutgoingWebhookDeps, 'orm'>,
  actor: OutgoingWebhookActor,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const db = knexOf(deps.orm);
  const row = await managedSubscription(db, actor, id);
  await db.transaction(async (trx) => {
    await trx(DELIVERIES).where({ consumer: FEED_CONSUMER, target_id: row.id }).delete();
    await trx(TABLE).where({ id: row.id }).delete();
    await recordAudit(trx, {
      organizationId: actor.organizationId,
      actor: actor.audit,
      action: 'outgoing_webhook.delete',
      targetType: 'outgoing_webhook',
      targetId: row.id,
      details: { url: auditUrl(row.url) },
    });
  });
  return { id: row.id, deleted: true };
}
