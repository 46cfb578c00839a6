import type { Role } from './roles';

/**
 * Who may do what (issue 13: roles checked in one place). Team-scoped actions name objects a
 * team owns (its services, their sources and webhooks, its heartbeats and members): a Team
 * Manager may take them only for a team they are in. Everything else is workspace-wide.
 */
export const ACTIONS = {
  /** Read the workspace's objects: incidents, services, webhooks, alerts, members, reports, on-call. */
  'workspace.read': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN', 'TEAM_MANAGER', 'MEMBER', 'STAKEHOLDER'], teamManagerOwnTeam: false },
  /** Acknowledge, resolve, … incidents and alerts; and any other change (a Stakeholder only reads). */
  'incidents.respond': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN', 'TEAM_MANAGER', 'MEMBER'], teamManagerOwnTeam: false },
  'members.manage': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: false },
  'teams.manage': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: false },
  'team.members.manage': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: true },
  'services.manage': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: true },
  /** Alert sources and webhooks (one table), heartbeats: owned through their service's team. */
  'sources.manage': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: true },
  'heartbeats.manage': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: true },
  /** HTTP monitors (issue 14): owned through their service's team, as heartbeats. */
  'monitors.manage': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: true },
  /**
   * Outgoing webhooks (docs/api/outgoing-webhooks.md): a Team Manager only for a subscription
   * limited to services their teams own (every one of them); all-services ones are workspace-wide.
   */
  'outgoing_webhooks.manage': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: true },
  'escalation.manage': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: true },
  /** Customer API tokens: hold, create, list, revoke (docs/architecture.md, "Workspaces, roles and credentials"). */
  'api_tokens.manage': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: false },
  /** Legacy API keys: every member holds and revokes their own; these roles list and revoke anyone's. */
  'api_keys.manage_any': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: false },
  'audit_log.read': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: false },
  /** Chat (docs/chat.md): connect or disconnect the workspace's Slack app (a service's channel is services.manage). */
  'integrations.manage': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: false },
  /** Imports from PagerDuty or Opsgenie (docs/importers.md): they invite people and create across the workspace. */
  'import.run': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: false },
  /** Single sign-on settings (docs/sso.md): the workspace's identity provider, its domains, require_sso. */
  'sso.manage': { roles: ['BILLING_OWNER', 'ACCOUNT_ADMIN'], teamManagerOwnTeam: false },
  'plan.change': { roles: ['BILLING_OWNER'], teamManagerOwnTeam: false },
} as const satisfies Record<string, { roles: readonly Role[]; teamManagerOwnTeam: boolean }>;

export type Action = keyof typeof ACTIONS;

/**
 * True when `role` may take `action`; for a team-scoped action, `inOwningTeam` says whether the
 * actor is in the team that owns the object (it lets a Team Manager in).
 */
export function can(role: Role, action: Action, scope: { inOwningTeam?: boolean } = {}): boolean {
  const rule = ACTIONS[action];
  if ((rule.roles as readonly Role[]).includes(role)) return true;
  return rule.teamManagerOwnTeam && role === 'TEAM_MANAGER' && scope.inOwningTeam === true;
}
