import { z } from 'zod';
import { USER_NAME } from '../../domain/user-profile';
import { ScimError, invalidPath, invalidValue } from './errors';
import { applyOperations, valueOf } from './patch';
import { ActiveValue, EXTERNAL_ID_MAX, ScimName, UserName, type PatchOperation } from './schemas';

/** What SCIM may change of a User (docs/scim.md). */
export interface UserState {
  email: string;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  externalId: string | null;
  active: boolean;
}

const NameText = z.string().trim().max(USER_NAME.max).nullable();
const ExternalId = z.string().max(EXTERNAL_ID_MAX).nullable();

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
export const applyUserPatch = (current: UserState, operations: PatchOperation[]): UserState => applyOperations({ ...current }, operations, setUserAttribute);

/** The whole name Klaxon shows: the display name, else given and family names together. */
export function fullName(s: Pick<UserState, 'displayName' | 'givenName' | 'familyName'>): string | null {
  if (s.displayName) return s.displayName;
  const joined = [s.givenName, s.familyName].filter(Boolean).join(' ');
  if (joined.length > USER_NAME.max) throw invalidValue(`name: givenName and familyName together must be at most ${USER_NAME.max} characters`);
  return joined || null;
}
