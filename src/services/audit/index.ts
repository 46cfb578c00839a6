import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { iso } from '../../db/timestamps';

/** The one writer of `audit_log`: every administrative change, by a member or by the system. */

/**
 * Who acted: a signed-in member (from the dashboard) or the system (a `klaxon` CLI operator, the
 * workspace's SCIM client, or the watchdog setting up its canary workspace: docs/reliability.md).
 */
export type AuditActor = { kind: 'user'; userId: string; email: string; ip?: string | null } | { kind: 'system'; via: 'cli' | 'scim' | 'watchdog' };

export interface AuditEvent {
  organizationId: string;
  actor: AuditActor;
  /** `<object>.<verb>`: `team.create`, `member.role_change`, `api_token.revoke`, … */
  action: string;
  targetType: string;
  targetId?: string | null;
  /** What changed; never a secret (callers pass names, roles, ids). */
  details?: Record<string, unknown>;
}

export const SYSTEM_CLI: AuditActor = { kind: 'system', via: 'cli' };
export const SYSTEM_WATCHDOG: AuditActor = { kind: 'system', via: 'watchdog' };

const SYSTEM_LABELS = { cli: 'system (klaxon CLI)', scim: 'system (SCIM provisioning)', watchdog: 'system (watchdog canary)' } as const;
const labelOf = (actor: AuditActor) => (actor.kind === 'user' ? actor.email : SYSTEM_LABELS[actor.via]);

/** Appends one entry; pass the transaction that made the change so both land or neither does. */
export async function recordAudit(db: MikroORM | Knex, event: AuditEvent, now = new Date()): Promise<void> {
  const k = 'em' in db ? knexOf(db) : db;
  await k('audit_log').insert({
    id: randomUUID(),
    organization_id: event.organizationId,
    actor_user_id: event.actor.kind === 'user' ? event.actor.userId : null,
    actor_kind: event.actor.kind,
    actor_label: labelOf(event.actor),
    action: event.action,
    target_type: event.targetType,
    target_id: event.targetId ?? null,
    ip: event.actor.kind === 'user' ? (event.actor.ip?.slice(0, 64) ?? null) : null,
    details: event.details ? JSON.stringify(event.details) : null,
    created_at: now,
  });
}

export interface AuditEntryJson {
  id: string;
  at: string;
  actor: { kind: 'user' | 'system'; user_id: string | null; label: string };
  action: string;
  target: { type: string; id: string | null };
  ip: string | null;
  details: Record<string, unknown> | null;
}

/** A page of a workspace's audit log, newest first, optionally one action or one actor. */
export async function listAuditLog(
  orm: MikroORM,
  organizationId: string,
  page: { limit: number; offset: number; action?: string; actorUserId?: string },
): Promise<{ entries: AuditEntryJson[]; total: number }> {
  const db = knexOf(orm);
  const filtered = () => {
    const q = db('audit_log').where({ organization_id: organizationId });
    if (page.action) q.andWhere({ action: page.action });
    if (page.actorUserId) q.andWhere({ actor_user_id: page.actorUserId });
    return q;
  };
  const [rows, [{ count }]] = await Promise.all([
    filtered()
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(page.offset),
    filtered().count<{ count: string }[]>({ count: '*' }),
  ]);
  return {
    total: Number(count),
    entries: rows.map((r) => ({
      id: r.id,
      at: iso(r.created_at),
      actor: { kind: r.actor_kind, user_id: r.actor_user_id, label: r.actor_label },
      action: r.action,
      target: { type: r.target_type, id: r.target_id },
      ip: r.ip,
      details: r.details,
    })),
  };
}
