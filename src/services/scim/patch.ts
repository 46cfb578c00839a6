import type { Filter } from 'scim2-parse-filter';
import { parseScimFilter } from './filter';
import { isUuid } from '../../domain/ids';
import { ScimError, invalidPath, invalidValue } from './errors';
import { ActiveValue, firstIssue, MemberRef, ScimName, UserName, type PatchOperation } from './schemas';
import { EXTERNAL_ID_MAX } from './schemas';
import { USER_NAME } from '../../domain/user-profile';
import { z } from 'zod';

/**
 * PATCH (RFC 7644 §3.5.2) as pure functions over what Klaxon keeps of a User or a Group: every
 * operation is checked and applied to a copy, so a bad one anywhere changes nothing.
 */

export interface UserState {
  email: string;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  externalId: string | null;
  active: boolean;
}

export interface GroupState {
  displayName: string;
  externalId: string | null;
  memberIds: string[];
}

const NameText = z.string().trim().max(USER_NAME.max).nullable();
const ExternalId = z.string().max(EXTERNAL_ID_MAX).nullable();

function valueOf<T>(schema: z.ZodType<T>, value: unknown, path: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidValue(`${path}: ${firstIssue(parsed.error)}`);
  return parsed.data;
}

/** userName is the sign-in email: SCIM may restate it but not change it (docs/scim.md). */
function sameEmail(state: UserState, value: unknown, path: string): void {
  const email = valueOf(UserName, value, path);
  if (email !== state.email) throw new ScimError(400, `${path}: userName (the sign-in email) cannot be changed by SCIM`, 'mutability');
}

/** Sets one attribute of a user; `remove` passes undefined. */
function setUserAttribute(state: UserState, rawPath: string, value: unknown, op: PatchOperation['op']): void {
  const path = rawPath.replace(/^urn:ietf:params:scim:schemas:core:2\.0:User:/i, '');
  const key = path.toLowerCase();
  const removing = op === 'remove';
  switch (key) {
    case 'active':
      if (removing) throw new ScimError(400, 'active cannot be removed; replace it with false to deprovision', 'mutability');
      state.active = valueOf(ActiveValue, value, path);
      return;
    case 'displayname':
    case 'name.formatted':
      state.displayName = removing ? null : valueOf(NameText, value, path);
      return;
    case 'name.givenname':
      state.givenName = removing ? null : valueOf(NameText, value, path);
      return;
    case 'name.familyname':
      state.familyName = removing ? null : valueOf(NameText, value, path);
      return;
    case 'name': {
      if (removing) {
        Object.assign(state, { givenName: null, familyName: null });
        return;
      }
      const name = valueOf(ScimName, value, path);
      if (name.givenName !== undefined) state.givenName = name.givenName;
      if (name.familyName !== undefined) state.familyName = name.familyName;
      if (name.formatted !== undefined) state.displayName = name.formatted;
      return;
    }
    case 'externalid':
      state.externalId = removing ? null : valueOf(ExternalId, value, path);
      return;
    case 'username':
    case 'emails[type eq "work"].value':
      if (removing) throw new ScimError(400, `${path} cannot be removed`, 'mutability');
      sameEmail(state, value, path);
      return;
    case 'emails': {
      if (removing) throw new ScimError(400, `${path} cannot be removed`, 'mutability');
      const emails = valueOf(
        z
          .array(z.looseObject({ value: z.string().max(320) }))
          .min(1)
          .max(10),
        value,
        path,
      );
      for (const e of emails) sameEmail(state, e.value, path);
      return;
    }
    default:
      throw invalidPath(
        `${path} is not an attribute Klaxon keeps (active, userName, displayName, name.givenName, name.familyName, name.formatted, externalId)`,
      );
  }
}

/** Applies a user PATCH's operations in order to a copy of `current`. */
export function applyUserPatch(current: UserState, operations: PatchOperation[]): UserState {
  const next = { ...current };
  operations.forEach((operation, i) => {
    try {
      if (operation.path !== undefined) {
        if (operation.op !== 'remove' && operation.value === undefined) throw invalidValue('value is required');
        setUserAttribute(next, operation.path, operation.value, operation.op);
        return;
      }
      if (operation.op === 'remove') throw new ScimError(400, 'remove needs a path', 'noTarget');
      // No path (Azure AD, Okta): the value is an object of attributes, dotted names allowed.
      const value = operation.value;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidValue('without a path, value must be an object of attributes');
      for (const [attribute, v] of Object.entries(value)) {
        if (attribute === 'schemas' || attribute === 'id') continue;
        setUserAttribute(next, attribute, v, operation.op);
      }
    } catch (err) {
      if (err instanceof ScimError) throw new ScimError(err.status, `Operations.${i}: ${err.message}`, err.scimType);
      throw err;
    }
  });
  return next;
}

const MemberList = z.array(MemberRef).max(10_000);

function memberIdsOf(value: unknown, path: string): string[] {
  const ids = valueOf(MemberList, value, path).map((m) => m.value.toLowerCase());
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) throw invalidValue(`${path}: ${JSON.stringify(bad)} is not a Klaxon user id`);
  return ids;
}

/** `members[value eq "id"]` (or several joined by `or`): the ids it names. */
function memberIdsOfPath(path: string): string[] {
  const filter = parseScimFilter(path);
  if (filter === undefined) throw invalidPath(`${path} is not a valid path`);
  if (filter.op !== '[]' || filter.attrPath.toLowerCase() !== 'members') throw invalidPath(`${path}: only members[value eq "<user id>"] is supported`);
  const ids: string[] = [];
  const collect = (f: Filter): void => {
    if (f.op === 'or') return f.filters.forEach(collect);
    if (f.op === 'eq' && f.attrPath.toLowerCase() === 'value' && typeof f.compValue === 'string') {
      ids.push(f.compValue.toLowerCase());
      return;
    }
    throw invalidPath(`${path}: only members[value eq "<user id>"] is supported`);
  };
  collect(filter.valFilter);
  return ids;
}

function setGroupAttribute(state: GroupState, rawPath: string, value: unknown, op: PatchOperation['op']): void {
  const path = rawPath.replace(/^urn:ietf:params:scim:schemas:core:2\.0:Group:/i, '');
  const key = path.toLowerCase();
  if (key === 'displayname') {
    if (op === 'remove') throw new ScimError(400, 'displayName cannot be removed', 'mutability');
    state.displayName = valueOf(z.string().trim().min(1).max(255), value, path);
  } else if (key === 'externalid') {
    state.externalId = op === 'remove' ? null : valueOf(ExternalId, value, path);
  } else if (key === 'members') {
    if (op === 'replace') state.memberIds = [...new Set(memberIdsOf(value, path))];
    else if (op === 'add') state.memberIds = [...new Set([...state.memberIds, ...memberIdsOf(value, path)])];
    else {
      // Without a value every member goes (RFC 7644 §3.5.2.2); with one, those named.
      const gone = value === undefined ? null : new Set(memberIdsOf(value, path));
      state.memberIds = gone === null ? [] : state.memberIds.filter((id) => !gone.has(id));
    }
  } else if (key.startsWith('members[')) {
    if (op !== 'remove') throw invalidPath(`${path}: add members with path "members" and a value list`);
    const gone = new Set(memberIdsOfPath(path));
    state.memberIds = state.memberIds.filter((id) => !gone.has(id));
  } else {
    throw invalidPath(`${path} is not an attribute Klaxon keeps for a group (displayName, members, externalId)`);
  }
}

/** Applies a group PATCH's operations in order to a copy of `current`. */
export function applyGroupPatch(current: GroupState, operations: PatchOperation[]): GroupState {
  const next = { ...current, memberIds: [...current.memberIds] };
  operations.forEach((operation, i) => {
    try {
      if (operation.path !== undefined) {
        if (operation.op !== 'remove' && operation.value === undefined) throw invalidValue('value is required');
        setGroupAttribute(next, operation.path, operation.value, operation.op);
        return;
      }
      if (operation.op === 'remove') throw new ScimError(400, 'remove needs a path', 'noTarget');
      const value = operation.value;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidValue('without a path, value must be an object of attributes');
      for (const [attribute, v] of Object.entries(value)) {
        if (attribute === 'schemas' || attribute === 'id') continue;
        setGroupAttribute(next, attribute, v, operation.op);
      }
    } catch (err) {
      if (err instanceof ScimError) throw new ScimError(err.status, `Operations.${i}: ${err.message}`, err.scimType);
      throw err;
    }
  });
  return next;
}

/** The whole name Klaxon shows: the display name, else given and family names together. */
export function fullName(s: Pick<UserState, 'displayName' | 'givenName' | 'familyName'>): string | null {
  if (s.displayName) return s.displayName;
  const joined = [s.givenName, s.familyName].filter(Boolean).join(' ');
  if (joined.length > USER_NAME.max) throw invalidValue(`name: givenName and familyName together must be at most ${USER_NAME.max} characters`);
  return joined || null;
}
