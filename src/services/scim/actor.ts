import type { AuditActor } from '../audit';
import type { Role } from '../../domain/roles';

/** Who SCIM changes are recorded as in the audit log. */
export const SCIM_ACTOR: AuditActor = { kind: 'system', via: 'scim' };

/** The role a provisioned person gets: the plain member role invitations default to (docs/scim.md). */
export const SCIM_MEMBER_ROLE: Role = 'MEMBER';

/** A list request: 1-based `startIndex`, `count` already capped, an optional SCIM filter. */
export interface Page {
  startIndex: number;
  count: number;
  filter?: string;
}
