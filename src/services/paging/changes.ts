import type { AuditActor } from '../audit';

/** Who made a paging change, for the audit log: a signed-in member, or the CLI operator when absent. */
export interface ChangeOptions {
  actor?: AuditActor;
}
