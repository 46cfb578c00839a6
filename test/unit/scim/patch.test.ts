import { applyGroupPatch } from '../../../src/services/scim/patch-group';
import { applyUserPatch, type UserState } from '../../../src/services/scim/patch-user';
import { ScimError } from '../../../src/services/scim/errors';

const USER: UserState = { email: 'b@example.com', displayName: null, givenName: 'Barbara', familyName: 'Jensen', externalId: null, active: true };
const ID = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const scimTypeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof ScimError ? err.scimType : 'not a ScimError';
  }
  return 'no error';
};

describe('applyUserPatch', () => {
  it('when operations have paths or (Azure AD) an object value and capitalised ops, then each applies in order to a copy', () => {
    const next = applyUserPatch(USER, [
      { op: 'replace', path: 'active', value: false },
      { op: 'replace', value: { 'name.givenName': 'Babs', externalId: 'e1' } },
      { op: 'remove', path: 'name.familyName' },
    ]);
    expect(next).toEqual({ ...USER, active: false, givenName: 'Babs', familyName: null, externalId: 'e1' });
    expect(USER.active).toBe(true);
    expect(applyUserPatch(USER, [{ op: 'replace', value: { active: 'False' } }]).active).toBe(false);
  });

  it('when a path is unknown, a value wrong, the email changed, or remove has no path, then the SCIM error says which', () => {
    expect(scimTypeOf(() => applyUserPatch(USER, [{ op: 'add', path: 'title', value: 'x' }]))).toBe('invalidPath');
    expect(scimTypeOf(() => applyUserPatch(USER, [{ op: 'replace', path: 'active', value: 'nope' }]))).toBe('invalidValue');
    expect(scimTypeOf(() => applyUserPatch(USER, [{ op: 'replace', path: 'userName', value: 'c@example.com' }]))).toBe('mutability');
    expect(scimTypeOf(() => applyUserPatch(USER, [{ op: 'remove' }]))).toBe('noTarget');
    expect(applyUserPatch(USER, [{ op: 'replace', path: 'userName', value: 'B@Example.com' }])).toEqual(USER);
  });
});

describe('applyGroupPatch', () => {
  const GROUP = { displayName: 'Ops', externalId: null, memberIds: [ID(1), ID(2)] };

  it('when members are added, removed by value or by filter path, or replaced, then the list follows without duplicates', () => {
    expect(applyGroupPatch(GROUP, [{ op: 'add', path: 'members', value: [{ value: ID(2) }, { value: ID(3) }] }]).memberIds).toEqual([ID(1), ID(2), ID(3)]);
    expect(applyGroupPatch(GROUP, [{ op: 'remove', path: `members[value eq "${ID(1)}"]` }]).memberIds).toEqual([ID(2)]);
    expect(applyGroupPatch(GROUP, [{ op: 'remove', path: 'members', value: [{ value: ID(2) }] }]).memberIds).toEqual([ID(1)]);
    expect(applyGroupPatch(GROUP, [{ op: 'remove', path: 'members' }]).memberIds).toEqual([]);
    expect(applyGroupPatch(GROUP, [{ op: 'replace', path: 'members', value: [{ value: ID(3) }] }]).memberIds).toEqual([ID(3)]);
    expect(applyGroupPatch(GROUP, [{ op: 'replace', value: { displayName: 'Ops 2' } }]).displayName).toBe('Ops 2');
  });

  it('when a member value is not an id or a path is unsupported, then it is invalidValue or invalidPath', () => {
    expect(scimTypeOf(() => applyGroupPatch(GROUP, [{ op: 'add', path: 'members', value: [{ value: 'bob' }] }]))).toBe('invalidValue');
    expect(scimTypeOf(() => applyGroupPatch(GROUP, [{ op: 'remove', path: 'members[display eq "x"]' }]))).toBe('invalidPath');
    expect(scimTypeOf(() => applyGroupPatch(GROUP, [{ op: 'replace', path: 'owner', value: 'x' }]))).toBe('invalidPath');
  });
});
