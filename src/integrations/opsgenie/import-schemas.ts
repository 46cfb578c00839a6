import { z } from 'zod';

/**
 * The parts of Opsgenie's REST API answers the importer reads (`{data, paging?, took,
 * requestId}`), as zod schemas with caps. Unknown fields are dropped.
 */

const id = z.string().min(1).max(128);
const text = (max: number) => z.string().max(max);
const list = <T extends z.ZodType>(item: T) => z.array(item).max(1000);
const teamRef = z.object({ id: id.nullish(), name: text(500).nullish() });

/** Paged lists say where the next page is; the importer takes only its offset and limit from it. */
export const ogPaging = z.object({ next: text(2048).nullish() }).nullish();

export const ogUser = z.object({
  id,
  username: text(320),
  fullName: text(500).nullish(),
  role: z.object({ id: text(128).nullish(), name: text(128).nullish() }).nullish(),
});

/** A user's contact (GET /v2/users/{id}/contacts): `method` email, sms, voice or mobile (the app). */
export const ogContact = z.object({
  id,
  method: text(32),
  to: text(1024),
  status: z.object({ enabled: z.boolean().nullish(), disabledReason: text(500).nullish() }).nullish(),
});

/** A user's notification rule as listed (GET /v2/users/{id}/notification-rules). */
export const ogNotificationRule = z.object({
  id,
  name: text(500).nullish(),
  actionType: text(64),
  order: z.number().int().nullish(),
  enabled: z.boolean().nullish(),
});

/** The rule in full (GET …/notification-rules/{ruleId}): only what says when it applies. */
export const ogNotificationRuleDetail = ogNotificationRule.extend({
  criteria: z.object({ type: text(64).nullish() }).nullish(),
  timeRestriction: z.object({ type: text(64).nullish() }).nullish(),
});

/** A step of a rule (GET …/notification-rules/{ruleId}/steps). */
export const ogNotificationStep = z.object({
  id,
  sendAfter: z.object({ timeAmount: z.number().int().nullish(), timeUnit: text(16).nullish() }).nullish(),
  contact: z.object({ method: text(32), to: text(1024) }),
  enabled: z.boolean().nullish(),
});
export const ogTeam = z.object({ id, name: text(500), description: text(10_000).nullish() });
export const ogTeamDetail = ogTeam.extend({
  members: list(z.object({ user: z.object({ id, username: text(320).nullish() }), role: text(64).nullish() })).nullish(),
});

const hourMin = { startHour: z.number().int(), startMin: z.number().int(), endHour: z.number().int(), endMin: z.number().int() };
export const ogTimeRestriction = z.object({
  type: text(64),
  restriction: z.object(hourMin).nullish(),
  restrictions: list(z.object({ startDay: text(16), endDay: text(16), ...hourMin })).nullish(),
});

export const ogParticipant = z.object({ type: text(32), id: id.nullish(), username: text(320).nullish(), name: text(500).nullish() });
export const ogRotation = z.object({
  id,
  name: text(500).nullish(),
  startDate: text(64),
  endDate: text(64).nullish(),
  type: text(16),
  length: z.number().int().nullish(),
  participants: list(ogParticipant).nullish(),
  timeRestriction: ogTimeRestriction.nullish(),
});
export const ogSchedule = z.object({
  id,
  name: text(500),
  timezone: text(64),
  enabled: z.boolean().nullish(),
  ownerTeam: teamRef.nullish(),
  rotations: list(ogRotation).nullish(),
});
export const ogOverride = z.object({
  alias: text(255),
  user: ogParticipant,
  startDate: text(64),
  endDate: text(64),
  rotations: list(z.object({ id, name: text(500).nullish() })).nullish(),
});

export const ogEscalation = z.object({
  id,
  name: text(500),
  ownerTeam: teamRef.nullish(),
  rules: list(
    z.object({
      condition: text(32),
      notifyType: text(32),
      delay: z.object({ timeAmount: z.number().int(), timeUnit: text(16).nullish() }),
      recipient: ogParticipant,
    }),
  ),
  repeat: z.object({ waitInterval: z.number().int().nullish(), count: z.number().int().nullish() }).nullish(),
});

export const ogService = z.object({ id, name: text(500), teamId: id.nullish(), description: text(10_000).nullish() });
export const ogIntegration = z.object({ id, name: text(500), type: text(64), enabled: z.boolean().nullish(), teamId: id.nullish() });
export const ogIntegrationDetail = ogIntegration.extend({ apiKey: text(128).nullish(), ownerTeam: teamRef.nullish() });

export type OgUser = z.infer<typeof ogUser>;
export type OgContact = z.infer<typeof ogContact>;
export type OgNotificationRule = z.infer<typeof ogNotificationRuleDetail> & { steps: Array<z.infer<typeof ogNotificationStep>> };
export type OgTeamDetail = z.infer<typeof ogTeamDetail>;
export type OgTimeRestriction = z.infer<typeof ogTimeRestriction>;
export type OgRotation = z.infer<typeof ogRotation>;
export type OgSchedule = z.infer<typeof ogSchedule>;
export type OgOverride = z.infer<typeof ogOverride>;
export type OgEscalation = z.infer<typeof ogEscalation>;
export type OgService = z.infer<typeof ogService>;
export type OgIntegration = z.infer<typeof ogIntegrationDetail>;

/** Everything an import reads from one Opsgenie account. */
export interface OpsgenieData {
  /** Users with their contacts and notification rules (each with its steps). */
  users: Array<OgUser & { contacts: OgContact[]; notificationRules: OgNotificationRule[] }>;
  teams: OgTeamDetail[];
  schedules: Array<OgSchedule & { overrides: OgOverride[] }>;
  escalations: OgEscalation[];
  services: OgService[];
  integrations: OgIntegration[];
}
