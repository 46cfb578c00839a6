/**
 * A user's profile (issue 12): display name, time zone, and personal notification preferences.
 * Personal notifications are the emails Klaxon sends a person about incidents (assigned to them,
 * resolved, a daily digest); paging (who is called, how and when) is contact methods and
 * notification rules, not these.
 */

export const USER_NAME = { min: 1, max: 100 } as const;

/** What the users.time_zone column holds at most. */
export const TIME_ZONE_MAX = 64;

export const NOTIFICATION_PREFERENCE_KEYS = ['email_on_incident_assigned', 'email_on_incident_resolved', 'daily_digest'] as const;
export type NotificationPreferenceKey = (typeof NOTIFICATION_PREFERENCE_KEYS)[number];
export type NotificationPreferences = Record<NotificationPreferenceKey, boolean>;

/** What a user who never chose gets: an email when an incident is assigned to them, nothing else. */
export const NOTIFICATION_PREFERENCE_DEFAULTS: Readonly<NotificationPreferences> = Object.freeze({
  email_on_incident_assigned: true,
  email_on_incident_resolved: false,
  daily_digest: false,
});

/**
 * The preferences in effect: the stored object over the defaults. Only documented keys with
 * boolean values count, so a row written by an older or newer version never leaks odd values.
 */
export function effectiveNotificationPreferences(stored: unknown): NotificationPreferences {
  const out: NotificationPreferences = { ...NOTIFICATION_PREFERENCE_DEFAULTS };
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return out;
  for (const key of NOTIFICATION_PREFERENCE_KEYS) {
    const value = (stored as Record<string, unknown>)[key];
    if (typeof value === 'boolean') out[key] = value;
  }
  return out;
}

/** IANA-shaped: `Europe/Berlin`, `UTC`, `Etc/GMT+5`; never a bare offset like `+01:00`. */
const IANA_SHAPE = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

let canonicalByLowerCase: Map<string, string> | undefined;
const canonicalNames = (): Map<string, string> => {
  canonicalByLowerCase ??= new Map(['UTC', ...Intl.supportedValuesOf('timeZone')].map((z) => [z.toLowerCase(), z]));
  return canonicalByLowerCase;
};

/**
 * The IANA time zone as it should be stored, or undefined when it is not one the runtime knows.
 * A listed zone's spelling is normalised (`europe/berlin` → `Europe/Berlin`); other names the
 * runtime accepts (links such as `Asia/Kolkata`, `US/Eastern`) are kept as sent.
 */
export function normaliseTimeZone(name: string): string | undefined {
  if (name.length === 0 || name.length > TIME_ZONE_MAX || !IANA_SHAPE.test(name)) return undefined;
  const listed = canonicalNames().get(name.toLowerCase());
  if (listed) return listed;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    return undefined;
  }
}
