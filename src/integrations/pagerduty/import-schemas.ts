import { z } from 'zod';

/**
 * The parts of PagerDuty's REST API v2 answers the importer reads, as zod schemas with caps (an
 * answer past a cap is refused, not trusted). Unknown fields are dropped.
 */

const id = z.string().min(1).max(64);
const text = (max: number) => z.string().max(max);
const instant = z.string().max(64);
const list = <T extends z.ZodType>(item: T) => z.array(item).max(1000);

const reference = z.object({ id, type: text(64).optional(), summary: text(1000).nullish() });

/** Classic pagination: `more` says whether another page follows. */
export const pageFields = { limit: z.number().int().nullish(), offset: z.number().int().nullish(), more: z.boolean().nullish() };

/**
 * A contact method: in full (GET /users/{id}/contact_methods, or `include[]=contact_methods`),
 * or a reference (`type` ending in `_reference`, no address) when the list was not expanded.
 */
export const pdContactMethod = z.object({
  id,
  type: text(64),
  label: text(500).nullish(),
  summary: text(1000).nullish(),
  address: text(1024).nullish(),
  country_code: z.number().int().nullish(),
  blacklisted: z.boolean().nullish(),
  enabled: z.boolean().nullish(),
});

/** A notification rule, in full or as a reference (no delay) when not expanded. */
export const pdNotificationRule = z.object({
  id,
  type: text(64).nullish(),
  start_delay_in_minutes: z.number().int().nullish(),
  urgency: text(16).nullish(),
  contact_method: reference.nullish(),
});

export const pdUser = z.object({
  id,
  name: text(500),
  email: text(320),
  role: text(64).nullish(),
  contact_methods: list(pdContactMethod).nullish(),
  notification_rules: list(pdNotificationRule).nullish(),
});
export const pdTeam = z.object({ id, name: text(500), description: text(10_000).nullish() });
export const pdTeamMember = z.object({ user: reference, role: text(64).nullish() });

export const pdRestriction = z.object({
  type: text(64),
  start_time_of_day: text(16),
  start_day_of_week: z.number().int().nullish(),
  duration_seconds: z.number().int(),
});

export const pdLayer = z.object({
  id,
  name: text(500).nullish(),
  start: instant,
  end: instant.nullish(),
  rotation_virtual_start: instant,
  rotation_turn_length_seconds: z.number().int(),
  users: list(z.object({ user: reference })),
  restrictions: list(pdRestriction).nullish(),
});

export const pdScheduleRef = z.object({ id, name: text(500).nullish(), summary: text(1000).nullish(), time_zone: text(64).nullish() });
export const pdSchedule = z.object({ id, name: text(500), time_zone: text(64), schedule_layers: list(pdLayer) });

export const pdOverride = z.object({ id, start: instant, end: instant, user: reference });

export const pdTarget = z.object({ id, type: text(64), summary: text(1000).nullish() });
export const pdEscalationPolicy = z.object({
  id,
  name: text(500),
  num_loops: z.number().int().nullish(),
  escalation_rules: list(z.object({ id, escalation_delay_in_minutes: z.number().int(), targets: list(pdTarget) })),
  teams: list(reference).nullish(),
});

export const pdIntegration = z.object({
  id,
  type: text(128),
  name: text(500).nullish(),
  summary: text(1000).nullish(),
  integration_key: text(128).nullish(),
});

export const pdService = z.object({
  id,
  name: text(500),
  description: text(10_000).nullish(),
  escalation_policy: reference.nullish(),
  teams: list(reference).nullish(),
  integrations: list(pdIntegration).nullish(),
});

export type PdUser = z.infer<typeof pdUser>;
export type PdContactMethod = z.infer<typeof pdContactMethod>;
export type PdNotificationRule = z.infer<typeof pdNotificationRule>;
export type PdTeam = z.infer<typeof pdTeam>;
export type PdTeamMember = z.infer<typeof pdTeamMember>;
export type PdLayer = z.infer<typeof pdLayer>;
export type PdRestriction = z.infer<typeof pdRestriction>;
export type PdSchedule = z.infer<typeof pdSchedule>;
export type PdOverride = z.infer<typeof pdOverride>;
export type PdEscalationPolicy = z.infer<typeof pdEscalationPolicy>;
export type PdService = z.infer<typeof pdService>;
export type PdIntegration = z.infer<typeof pdIntegration>;

/** Everything an import reads from one PagerDuty account. */
export interface PagerDutyData {
  users: PdUser[];
  teams: Array<PdTeam & { members: PdTeamMember[] }>;
  schedules: Array<PdSchedule & { overrides: PdOverride[] }>;
  escalationPolicies: PdEscalationPolicy[];
  services: PdService[];
}
