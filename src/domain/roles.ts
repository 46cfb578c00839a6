import { can } from './permissions';

/**
 * Workspace roles (docs/architecture.md, "Workspaces, roles and credentials"). A Stakeholder reads
 * incidents, reports and on-call but acts on nothing and is never paged (docs/importers.md: an
 * import's observers and read-only people).
 */
export const ROLES = ['BILLING_OWNER', 'ACCOUNT_ADMIN', 'TEAM_MANAGER', 'MEMBER', 'STAKEHOLDER'] as const;
export type Role = (typeof ROLES)[number];

/** The role that is never a paging target: schedules, escalation steps and teams' pages leave it out. */
export const NEVER_PAGED_ROLE = 'STAKEHOLDER' satisfies Role;

/** True when people of this role may be paged (every role but Stakeholder). */
export const isPageableRole = (role: Role): boolean => role !== NEVER_PAGED_ROLE;

/** Only these roles may hold, create, list or revoke customer API tokens (docs/architecture.md, "Workspaces, roles and credentials"). */
export const canManageApiTokens = (role: Role): boolean => can(role, 'api_tokens.manage');
