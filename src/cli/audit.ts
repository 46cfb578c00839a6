import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../db/knex';
import { recordAudit, SYSTEM_CLI } from '../services/audit';

/**
 * What an administrative CLI command changed, for the workspace's audit log: operators act as the
 * system. `id` known before the work (a removal) or taken from the result (a creation); the
 * workspace is read from the row's `organization_id` (or is the row, for a workspace).
 */
export interface CliAudit<T> {
  action: string;
  targetType: string;
  table:
    | 'organizations'
    | 'memberships'
    | 'teams'
    | 'services'
    | 'alert_sources'
    | 'heartbeats'
    | 'api_tokens'
    | 'api_keys'
    | 'contact_methods'
    | 'notification_rules'
    | 'escalation_policies'
    | 'schedules';
  id?: string;
  idOf?: (result: T) => string;
  details?: (result: T) => Record<string, unknown>;
}

async function workspaceOf(orm: MikroORM, table: CliAudit<unknown>['table'], id: string): Promise<string | undefined> {
  if (table === 'organizations') return id;
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const row = await knexOf(orm)(table).select('organization_id').where({ id }).first();
  return row?.organization_id;
}

/** Runs an administrative command's work and records it as the system in its workspace's audit log. */
export async function audited<T>(orm: MikroORM, what: CliAudit<T>, work: () => Promise<T>): Promise<T> {
  const before = what.id ? await workspaceOf(orm, what.table, what.id) : undefined;
  const result = await work();
  const id = what.id ?? what.idOf?.(result);
  const organizationId = before ?? (id ? await workspaceOf(orm, what.table, id) : undefined);
  if (organizationId) {
    await recordAudit(orm, {
      organizationId,
      actor: SYSTEM_CLI,
      action: what.action,
      targetType: what.targetType,
      targetId: id ?? null,
      details: what.details?.(result),
    });
  }
  return result;
}
