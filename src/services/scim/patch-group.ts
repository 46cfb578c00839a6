import type { Filter } from 'scim2-parse-filter';
import { z } from 'zod';
import { isUuid } from '../../domain/ids';
import { ScimError, invalidPath, invalidValue } from './errors';
import { parseScimFilter } from './filter';
import { applyOperations, valueOf } from './patch';
import { EXTERNAL_ID_MAX, MemberRef, type PatchOperation } from './schemas';

/** What SCIM may change of a Group (a team). */
export interface GroupState {
  displayName: string;
  externalId: string | null;
  memberIds: string[];
}

const ExternalId = z.string().max(EXTERNAL_ID_MAX).nullable();

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
export const applyGroupPatch = (current: GroupState, operations: PatchOperation[]): GroupState =>
  applyOperations({ ...current, memberIds: [...current.memberIds] }, operations, setGroupAttribute);
