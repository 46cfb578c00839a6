import { can } from '../../../src/domain/permissions';
import { ROLES, type Role } from '../../../src/domain/roles';

export const ROLE_LABELS: Record<Role, string> = {
  BILLING_OWNER: 'Billing Owner',
  ACCOUNT_ADMIN: 'Account Admin',
  TEAM_MANAGER: 'Team Manager',
  MEMBER: 'Member',
  STAKEHOLDER: 'Stakeholder (reads, never paged)',
};

/** Whether this role may change roles, remove members and invite (the server checks again). */
export const canManageMembers = (role: Role): boolean => can(role, 'members.manage');

/** Whether this role may list, create and revoke customer API tokens. */
export const canManageApiTokens = (role: Role): boolean => can(role, 'api_tokens.manage');

/**
 * The roles `actor` may give, as select options. Only a Billing Owner makes a Billing Owner
 * (an Account Admin trying it gets 403 from the server; offering it would only invite that).
 */
export function assignableRoles(actor: Role): Array<{ value: Role; label: string }> {
  return ROLES.filter((r) => actor === 'BILLING_OWNER' || r !== 'BILLING_OWNER').map((r) => ({ value: r, label: ROLE_LABELS[r] }));
}

/** Whether `actor` may change or remove a member who has `target`'s role: only a Billing Owner touches a Billing Owner. */
export const canChangeMember = (actor: Role, target: Role): boolean => canManageMembers(actor) && (target !== 'BILLING_OWNER' || actor === 'BILLING_OWNER');
