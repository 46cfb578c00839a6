import { ACTIONS, can, type Action } from '../../src/domain/permissions';
import { ROLES, type Role } from '../../src/domain/roles';

// The whole matrix, written out: B = Billing Owner, A = Account Admin, T = Team Manager in the
// owning team, t = Team Manager outside it, M = Member, S = Stakeholder (reads only). A change to who
// may do what shows here.
const MATRIX: Record<Action, string> = {
  'workspace.read': 'B A T t M S',
  'incidents.respond': 'B A T t M',
  'members.manage': 'B A',
  'teams.manage': 'B A',
  'team.members.manage': 'B A T',
  'services.manage': 'B A T',
  'sources.manage': 'B A T',
  'heartbeats.manage': 'B A T',
  'monitors.manage': 'B A T',
  'outgoing_webhooks.manage': 'B A T',
  'escalation.manage': 'B A T',
  'api_tokens.manage': 'B A',
  'api_keys.manage_any': 'B A',
  'audit_log.read': 'B A',
  'integrations.manage': 'B A',
  'import.run': 'B A',
  'sso.manage': 'B A',
  'plan.change': 'B',
};

const WHO: Array<[string, Role, boolean]> = [
  ['B', 'BILLING_OWNER', false],
  ['A', 'ACCOUNT_ADMIN', false],
  ['T', 'TEAM_MANAGER', true],
  ['t', 'TEAM_MANAGER', false],
  ['M', 'MEMBER', true],
  ['S', 'STAKEHOLDER', true],
];

describe('the roles matrix', () => {
  it('when every action is asked for every role, in and outside the owning team, then the answers are the matrix', () => {
    expect(Object.keys(MATRIX).sort()).toEqual(Object.keys(ACTIONS).sort());
    for (const action of Object.keys(ACTIONS) as Action[]) {
      const allowed = WHO.filter(([, role, inOwningTeam]) => can(role, action, { inOwningTeam }))
        .map(([letter]) => letter)
        .join(' ');
      expect({ action, allowed }).toEqual({ action, allowed: MATRIX[action] });
    }
  });

  it('when a role is asked without a scope, then team-scoped actions are refused to Team Managers', () => {
    for (const role of ROLES) expect({ role, ok: can(role, 'services.manage') }).toEqual({ role, ok: role === 'BILLING_OWNER' || role === 'ACCOUNT_ADMIN' });
  });
});
