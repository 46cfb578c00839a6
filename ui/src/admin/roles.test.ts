import { describe, expect, it } from 'vitest';
import { assignableRoles, canChangeMember, canManageMembers } from './roles';

describe('member roles', () => {
  it('when a Billing Owner picks a role, then every role is offered, Billing Owner included', () => {
    expect(assignableRoles('BILLING_OWNER').map((o) => o.label)).toEqual([
      'Billing Owner',
      'Account Admin',
      'Team Manager',
      'Member',
      'Stakeholder (reads, never paged)',
    ]);
  });

  it('when an Account Admin picks a role, then Billing Owner is not offered', () => {
    expect(assignableRoles('ACCOUNT_ADMIN').map((o) => o.value)).toEqual(['ACCOUNT_ADMIN', 'TEAM_MANAGER', 'MEMBER', 'STAKEHOLDER']);
  });

  it('when an Account Admin looks at a Billing Owner, then they may not change or remove them, but may change a Member', () => {
    expect(canChangeMember('ACCOUNT_ADMIN', 'BILLING_OWNER')).toBe(false);
    expect(canChangeMember('ACCOUNT_ADMIN', 'MEMBER')).toBe(true);
    expect(canChangeMember('BILLING_OWNER', 'BILLING_OWNER')).toBe(true);
  });

  it('when a Team Manager or Member looks at the list, then they manage no one', () => {
    expect(canManageMembers('TEAM_MANAGER')).toBe(false);
    expect(canManageMembers('MEMBER')).toBe(false);
    expect(canChangeMember('TEAM_MANAGER', 'MEMBER')).toBe(false);
  });
});
