/** Form A and Form B's refusal of text PostgreSQL cannot store (storable-text.ts): 400 naming the field. */
import { z } from 'zod';
import { isStorableText, unstorablePath } from './storable-text';

const UNSTORABLE = 'must not contain NUL (U+0000) or unpaired surrogate characters';

/** The string schema, refusing unstorable text as `<field> must not contain …`. */
export const storableField = (schema: z.ZodString, field: string): z.ZodString => schema.refine(isStorableText, `${field} ${UNSTORABLE}`);

/** An object schema (metadata, tags) refusing unstorable keys or values anywhere inside, naming where. */
export function storableObject<T extends z.ZodType>(schema: T, field: string): T {
  return schema.superRefine((value, ctx) => {
    const path = unstorablePath(value);
    if (path !== undefined) ctx.addIssue({ code: 'custom', path, message: `${field} keys and values ${UNSTORABLE}` });
  }) as unknown as T;
}
