import { z } from 'zod';
import { EMAIL_PATTERN } from '../../domain/channels';
import { USER_NAME } from '../../domain/user-profile';

/** SCIM request bodies as zod schemas, every string and list capped (docs/scim.md). Unknown attributes are ignored. */

export const MAX_OPERATIONS = 100;
export const EXTERNAL_ID_MAX = 255;
const SCHEMAS = z.array(z.string().max(200)).max(10).optional();
const NamePart = z.string().trim().max(USER_NAME.max).nullable().optional();

/** `true`/`false`, or the strings Azure AD sends for them (`"False"`). */
export const ActiveValue = z.union([
  z.boolean(),
  z
    .string()
    .max(5)
    .transform((s, ctx) => {
      const lower = s.toLowerCase();
      if (lower === 'true' || lower === 'false') return lower === 'true';
      ctx.addIssue({ code: 'custom', message: 'must be true or false' });
      return z.NEVER;
    }),
]);

export const UserName = z
  .string()
  .trim()
  .max(320)
  .refine((v) => EMAIL_PATTERN.test(v), 'must be an email address (Klaxon signs people in by email)')
  .transform((v) => v.toLowerCase());

export const ScimName = z.looseObject({ formatted: NamePart, givenName: NamePart, familyName: NamePart });

export const UserBody = z.looseObject({
  schemas: SCHEMAS,
  userName: UserName,
  externalId: z.string().max(EXTERNAL_ID_MAX).nullable().optional(),
  name: ScimName.optional(),
  displayName: NamePart,
  emails: z
    .array(z.looseObject({ value: z.string().max(320), type: z.string().max(50).optional(), primary: z.boolean().optional() }))
    .max(10)
    .optional(),
  active: ActiveValue.optional(),
});
export type UserBody = z.infer<typeof UserBody>;

export const MemberRef = z.looseObject({ value: z.string().max(64), display: z.string().max(320).optional() });

export const GroupBody = z.looseObject({
  schemas: SCHEMAS,
  displayName: z.string().trim().min(1).max(255),
  externalId: z.string().max(EXTERNAL_ID_MAX).nullable().optional(),
  members: z.array(MemberRef).max(10_000).optional(),
});
export type GroupBody = z.infer<typeof GroupBody>;

export const PatchOperation = z.object({
  // Azure AD capitalises ops (`Replace`); RFC 7644 §3.5.2 names them in lower case.
  op: z
    .string()
    .max(10)
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(['add', 'replace', 'remove'], 'must be add, replace or remove')),
  path: z.string().min(1).max(300).optional(),
  value: z.unknown().optional(),
});
export type PatchOperation = z.infer<typeof PatchOperation>;

export const PatchBody = z.looseObject({
  schemas: z
    .array(z.string().max(200))
    .max(10)
    .refine((s) => s.includes('urn:ietf:params:scim:api:messages:2.0:PatchOp'), 'must include the PatchOp schema'),
  Operations: z.array(PatchOperation).min(1).max(MAX_OPERATIONS),
});

/** The first problem zod found, naming the field (`Operations.0.op: must be …`). */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
