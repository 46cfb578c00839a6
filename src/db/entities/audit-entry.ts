import { EntitySchema } from '@mikro-orm/core';

/** One administrative change in a workspace: who (a member, or the system for CLI operators), what, when, from where. */
export interface AuditEntry {
  id: string;
  organizationId: string;
  /** The member who acted; null when the system did (a `klaxon` CLI command). */
  actorUserId: string | null;
  /** `user` or `system`. */
  actorKind: string;
  /** The member's email, or `system (klaxon CLI)`: kept readable after the member leaves. */
  actorLabel: string;
  /** What happened, `<object>.<verb>`: `team.create`, `api_token.revoke`, … */
  action: string;
  targetType: string;
  targetId: string | null;
  ip: string | null;
  /** What changed, never a secret. */
  details: Record<string, unknown> | null;
  createdAt: Date;
}

export const AuditEntrySchema = new EntitySchema<AuditEntry>({
  name: 'AuditEntry',
  tableName: 'audit_log',
  indexes: [{ properties: ['organizationId', 'createdAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    actorUserId: { type: 'uuid', nullable: true },
    actorKind: { type: 'string', length: 16 },
    actorLabel: { type: 'string', length: 320 },
    action: { type: 'string', length: 64 },
    targetType: { type: 'string', length: 32 },
    targetId: { type: 'string', length: 64, nullable: true },
    ip: { type: 'string', length: 64, nullable: true },
    details: { type: 'json', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
