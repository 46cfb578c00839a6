/**
 * The role a person gets when an import makes them a member (docs/importers.md, "People"). A
 * person who is a member already keeps their role: these apply to new members only. Pure.
 */
import type { Role } from '../roles';

/** A mapped role, and a note when the source's role was not one Klaxon knows (the person becomes a Member). */
export type MappedRole = { role: Role; note?: string };

const PAGERDUTY: Record<string, Role> = {
  owner: 'ACCOUNT_ADMIN',
  admin: 'ACCOUNT_ADMIN',
  manager: 'TEAM_MANAGER',
  user: 'MEMBER',
  limited_user: 'MEMBER',
  observer: 'STAKEHOLDER',
  read_only_user: 'STAKEHOLDER',
  read_only_limited_user: 'STAKEHOLDER',
};

/**
 * PagerDuty: the account role (owner/admin → Account Admin, user/limited_user → Member,
 * observer and the read-only ones → Stakeholder); a user or limited user who manages a team
 * (team role `manager`) is a Team Manager.
 */
export function pagerDutyRole(accountRole: string | null | undefined, teamRoles: readonly string[]): MappedRole {
  const role = PAGERDUTY[(accountRole ?? 'user').toLowerCase()];
  if (!role) return { role: 'MEMBER', note: `its PagerDuty role ${JSON.stringify(accountRole)} has no Klaxon match: a Member` };
  if (role === 'MEMBER' && teamRoles.some((r) => r.toLowerCase() === 'manager')) return { role: 'TEAM_MANAGER' };
  return { role };
}

const OPSGENIE: Record<string, Role> = { owner: 'ACCOUNT_ADMIN', admin: 'ACCOUNT_ADMIN', user: 'MEMBER', stakeholder: 'STAKEHOLDER', observer: 'STAKEHOLDER' };

/** Opsgenie: Owner/Admin → Account Admin, User → Member, Stakeholder → Stakeholder; a custom role → Member. */
export function opsgenieRole(roleName: string | null | undefined): MappedRole {
  const role = OPSGENIE[(roleName ?? 'User').toLowerCase()];
  return role ? { role } : { role: 'MEMBER', note: `its Opsgenie role ${JSON.stringify(roleName)} is a custom one: a Member` };
}
