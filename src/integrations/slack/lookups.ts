/**
 * What Slack's interactions and the `/klaxon` command read (docs/chat.md): the member a Slack
 * user acts as (a verified email, a member of the workspace), incidents by id or number, the open
 * ones, and who last moved an incident. Reads only; acting goes through the incident workflows.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { isUuid } from '../../domain/ids';
import type { Role } from '../../domain/roles';

/** The Klaxon member a Slack user acts as. */
export interface SlackActingMember {
  id: string;
  email: string;
  name: string | null;
  /** Their role here: a Stakeholder reads but does not act (docs/importers.md, "Roles"). */
  role: Role;
}

/** The member of the workspace whose **verified** login email is this one, or undefined. */
export async function verifiedMemberByEmail(orm: MikroORM, organizationId: string, email: string): Promise<SlackActingMember | undefined> {
  const row = await knexOf(orm)('users as u')
    .join('memberships as m', 'm.user_id', 'u.id')
    .select('u.id', 'u.email', 'u.name', 'm.role')
    // Logins are stored trimmed and lower-cased (signup's normaliseEmail): the unique index finds it.
    .where({ 'm.organization_id': organizationId, 'u.verified': true, 'u.email': email.trim().toLowerCase() })
    .first();
  return row ? { id: row.id as string, email: row.email as string, name: (row.name as string | null) ?? null, role: row.role as Role } : undefined;
}

/** An incident of one of these workspaces, by id (the button's value), with its workspace. */
export async function incidentOfWorkspaces(
  orm: MikroORM,
  incidentId: string,
  organizationIds: string[],
): Promise<{ id: string; organization_id: string; number: number } | undefined> {
  if (!isUuid(incidentId) || organizationIds.length === 0) return undefined;
  return knexOf(orm)('incidents').select('id', 'organization_id', 'number').where({ id: incidentId }).whereIn('organization_id', organizationIds).first();
}

/** A workspace's incident by its number (`/klaxon ack 42`). */
export async function incidentByNumber(orm: MikroORM, organizationId: string, number: number): Promise<{ id: string; number: number } | undefined> {
  return knexOf(orm)('incidents').select('id', 'number').where({ organization_id: organizationId, number }).first();
}

/** The newest open incidents (triggered, acknowledged, investigating) of a workspace. */
export async function openIncidents(
  orm: MikroORM,
  organizationId: string,
  limit: number,
): Promise<Array<{ id: string; number: number; title: string; status: string; severity: string }>> {
  return knexOf(orm)('incidents')
    .select('id', 'number', 'title', 'status', 'severity')
    .where({ organization_id: organizationId })
    .whereIn('status', ['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING'])
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
}

/** Who moved an incident to a status last (name, else email; null for the system), for "already acknowledged by …". */
export async function lastMovedBy(orm: MikroORM, incidentId: string, status: string): Promise<{ who: string | null; via: string | null } | undefined> {
  const row = await knexOf(orm)('timeline_entries as t')
    .leftJoin('users as u', 'u.id', 't.actor_id')
    .select('u.name', 'u.email', 't.via')
    .where({ 't.incident_id': incidentId, 't.to_status': status })
    .orderBy('t.seq', 'desc')
    .first();
  return row ? { who: (row.name as string | null) ?? (row.email as string | null) ?? null, via: (row.via as string | null) ?? null } : undefined;
}

/** The incident's last timeline seq: an escalate-now click counts once until the incident moves on. */
export async function lastSeqOf(orm: MikroORM, incidentId: string): Promise<number> {
  const row = (await knexOf(orm)('incidents').select('last_seq').where({ id: incidentId }).first()) as { last_seq: number } | undefined;
  return Number(row?.last_seq ?? 0);
}

/** Names of members by id (on-call answers), name else email. */
export async function memberNames(orm: MikroORM, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await knexOf(orm)('users').select('id', 'name', 'email').whereIn('id', ids);
  return new Map(rows.map((r: { id: string; name: string | null; email: string }) => [r.id, r.name ?? r.email]));
}
