import { iso, isoOrNull } from '../../db/timestamps';
import type { IncidentSnapshot } from '../../contracts/workflows';

/** An `incidents` row as node-postgres returns it (snake_case columns). */
export interface IncidentRow {
  id: string;
  organization_id: string;
  number: number;
  title: string;
  description: string | null;
  severity: IncidentSnapshot['severity'];
  status: IncidentSnapshot['status'];
  service_id: string | null;
  owning_team_id: string;
  dedup_key: string | null;
  alert_count: number;
  created_at: Date | string;
  acknowledged_at: Date | string | null;
  resolved_at: Date | string | null;
  closed_at: Date | string | null;
  updated_at: Date | string;
  group_rule?: string | null;
  group_key?: string | null;
  storm_source_id?: string | null;
}

/** The projection row as plain JSON (what workflows return and the API shows). */
export function toSnapshot(row: IncidentRow): IncidentSnapshot {
  return {
    id: row.id,
    organization_id: row.organization_id,
    number: row.number,
    title: row.title,
    description: row.description,
    severity: row.severity,
    status: row.status,
    service_id: row.service_id,
    owning_team_id: row.owning_team_id,
    dedup_key: row.dedup_key,
    alert_count: row.alert_count,
    created_at: iso(row.created_at),
    acknowledged_at: isoOrNull(row.acknowledged_at),
    resolved_at: isoOrNull(row.resolved_at),
    closed_at: isoOrNull(row.closed_at),
    updated_at: iso(row.updated_at),
    // Only on grouped and storm incidents, so every other incident reads as it always did.
    ...(row.group_rule && row.group_key ? { grouping: { rule: row.group_rule, key: row.group_key } } : {}),
    ...(row.storm_source_id ? { storm_source_id: row.storm_source_id } : {}),
  };
}

/** The columns every incident read selects, in one place. */
export const INCIDENT_COLUMNS = [
  'id',
  'organization_id',
  'number',
  'title',
  'description',
  'severity',
  'status',
  'service_id',
  'owning_team_id',
  'dedup_key',
  'alert_count',
  'created_at',
  'acknowledged_at',
  'resolved_at',
  'closed_at',
  'updated_at',
  'group_rule',
  'group_key',
  'storm_source_id',
] as const;
