import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ROLES } from '../../src/domain/roles';
import { NOTIFICATION_PREFERENCE_DEFAULTS, normaliseTimeZone, USER_NAME } from '../../src/domain/user-profile';

extendZodWithOpenApi(z);

/** Zod schemas of /v1/users on the API-key surface: the validators and the OpenAPI document use these. */

/** Fields a caller may not change through PUT /v1/users/me, and why. */
const NOT_HERE: Readonly<Record<string, string>> = {
  email: 'email cannot be changed here',
  role: 'role cannot be changed here: a workspace admin changes roles',
  id: 'id cannot be changed',
  verified: 'verified cannot be changed here',
  teams: 'teams cannot be changed here',
  created_at: 'created_at cannot be changed',
  password: 'password cannot be changed here',
};

/** The message of a strict object's error: one clause per field it refuses, naming it; else zod's own. */
const refusing =
  (describe: (key: string) => string, notAnObject: string) =>
  (issue: { code?: string; keys?: string[] }): string | undefined => {
    if (issue.code === 'invalid_type') return notAnObject;
    if (issue.code === 'unrecognized_keys') return (issue.keys ?? []).map(describe).join('; ');
    return undefined;
  };

const d = NOTIFICATION_PREFERENCE_DEFAULTS;
const preference = (key: keyof typeof d, description: string) =>
  z.boolean({ error: `${key} must be true or false` }).openapi({ description: `${description} Default ${d[key]}.` });

const preferenceFields = {
  email_on_incident_assigned: preference('email_on_incident_assigned', 'Email me when an incident is assigned to me.'),
  email_on_incident_resolved: preference('email_on_incident_resolved', 'Email me when an incident I was paged for is resolved.'),
  daily_digest: preference('daily_digest', 'Email me a daily digest of my workspace’s incidents.'),
};

const PREFERENCES_DOC =
  'Personal notifications: the emails Klaxon sends this person about incidents. Not paging: who is called, how and when is contact methods and notification rules.';

export const NotificationPreferencesSchema = z
  .object(preferenceFields)
  .openapi('NotificationPreferences', { description: `${PREFERENCES_DOC} Every key is present; unset ones have their defaults.` });

export const UserTeamSchema = z.object({ id: z.string().uuid(), name: z.string() }).openapi('UserTeam');

export const UserSchema = z
  .object({
    id: z.string().uuid(),
    email: z.string(),
    name: z.string().nullable().openapi({ description: 'display name; null when unset' }),
    role: z.enum(ROLES).openapi({ description: 'their role in this workspace' }),
    time_zone: z.string().nullable().openapi({ description: 'IANA time zone times are shown in; null means UTC' }),
    verified: z.boolean().openapi({ description: 'their email address is verified' }),
    notification_preferences: NotificationPreferencesSchema,
    teams: z.array(UserTeamSchema).openapi({ description: 'the teams of this workspace they belong to, by name' }),
    created_at: z.string().datetime().openapi({ format: 'date-time' }),
  })
  .openapi('User', { description: 'A member of the workspace; never a password hash, token, key or contact address.' });

const timeZone = z
  .string({ error: 'time_zone must be a string or null' })
  .refine((v) => normaliseTimeZone(v) !== undefined, {
    error: (issue) => `unknown time zone ${JSON.stringify(issue.input)}; use an IANA name such as Europe/Berlin or UTC`,
  })
  .openapi({ description: 'an IANA time zone such as Europe/Berlin; null means UTC', example: 'Europe/Berlin' });

export const UpdateMeBody = z
  .strictObject(
    {
      name: z
        .string({ error: 'name must be a string or null' })
        .trim()
        .min(USER_NAME.min, `name must be ${USER_NAME.min} to ${USER_NAME.max} characters (null clears it)`)
        .max(USER_NAME.max, `name must be ${USER_NAME.min} to ${USER_NAME.max} characters (null clears it)`)
        .nullable()
        .optional()
        .openapi({ description: `display name, ${USER_NAME.min} to ${USER_NAME.max} characters after trimming; null clears it` }),
      time_zone: timeZone.nullable().optional(),
      notification_preferences: z
        .strictObject(
          {
            email_on_incident_assigned: preferenceFields.email_on_incident_assigned.optional(),
            email_on_incident_resolved: preferenceFields.email_on_incident_resolved.optional(),
            daily_digest: preferenceFields.daily_digest.optional(),
          },
          { error: refusing((k) => `unknown preference "${k}"; known: ${Object.keys(d).join(', ')}`, 'notification_preferences must be an object') },
        )
        .optional()
        .openapi({ description: `${PREFERENCES_DOC} Merged into what is stored: keys not sent keep their value; unknown keys are refused.` }),
    },
    { error: refusing((k) => NOT_HERE[k] ?? `unknown field "${k}"`, 'request body must be a JSON object') },
  )
  .refine((b) => Object.keys(b).length > 0, {
    error: 'send at least one of name, time_zone, notification_preferences',
    // Only for a body that is otherwise fine: `{"email": …}` is refused for its field alone.
    when: (payload) => payload.issues.length === 0,
  })
  .openapi('UpdateMe', { description: 'Your own profile: send only what changes. email and role cannot be changed here.' });
