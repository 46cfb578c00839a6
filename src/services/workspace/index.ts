/**
 * Workspaces and what hangs off them: organizations and their plans, members and roles, teams
 * and their members, the service catalog (services and monitors alerts are routed by),
 * customer API tokens and API keys, and members' own profiles (users.ts).
 */
export * from './workspaces';
export * from './team-members';
export * from './catalog';
export * from './api-tokens';
export * from './api-keys';
export * from './users';
export * from './members';
export * from './invitations';
export * from './teams';
export * from './plan';
export * from './ready-workspace';
