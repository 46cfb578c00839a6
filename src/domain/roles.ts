import { can } from './permissions';

/** Workspace roles (docs/architecture.md, "Workspaces, roles and credentials"). */
export const ROLES = ['BILLING_OWNER', 'ACCOUNT_ADMIN', 'TEAM_MANAGER', 'MEMBER'] as const;
export type Role = (typeof ROLES)[number];

/** Only these roles may hold, create, list or revoke customer API tokens (docs/architecture.md, "Workspaces, roles and credentials"). */
export const canManageApiTokens = (role: Role): boolean => can(role, 'api_tokens.manage');
