import type { z } from 'zod';
import { ScimError, invalidValue } from './errors';
import { firstIssue, type PatchOperation } from './schemas';

/**
 * PATCH (RFC 7644 §3.5.2) as pure functions over what Klaxon keeps of a resource: every
 * operation is checked and applied to a copy, so a bad one anywhere changes nothing
 * (users: patch-user.ts, groups: patch-group.ts).
 */

/** Sets (or, for `remove`, clears) one attribute of `state`; throws a ScimError naming the problem. */
export type SetAttribute<S> = (state: S, path: string, value: unknown, op: PatchOperation['op']) => void;

/** A value checked by `schema`, or 400 invalidValue naming the path. */
export function valueOf<T>(schema: z.ZodType<T>, value: unknown, path: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidValue(`${path}: ${firstIssue(parsed.error)}`);
  return parsed.data;
}

/**
 * Applies the operations in order to `next` (the caller's copy). Without a path (Azure AD, Okta)
 * the value is an object of attributes, dotted names allowed. Errors name the operation's index.
 */
export function applyOperations<S>(next: S, operations: PatchOperation[], set: SetAttribute<S>): S {
  operations.forEach((operation, i) => {
    try {
      if (operation.path !== undefined) {
        if (operation.op !== 'remove' && operation.value === undefined) throw invalidValue('value is required');
        set(next, operation.path, operation.value, operation.op);
        return;
      }
      if (operation.op === 'remove') throw new ScimError(400, 'remove needs a path', 'noTarget');
      const value = operation.value;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidValue('without a path, value must be an object of attributes');
      for (const [attribute, v] of Object.entries(value)) {
        if (attribute === 'schemas' || attribute === 'id') continue;
        set(next, attribute, v, operation.op);
      }
    } catch (err) {
      if (err instanceof ScimError) throw new ScimError(err.status, `Operations.${i}: ${err.message}`, err.scimType);
      throw err;
    }
  });
  return next;
}
