/**
 * What an import from PagerDuty or Opsgenie means to do (docs/importers.md): the source's
 * objects mapped to Klaxon's shapes, still named by their ids in the source system, and what
 * could not be mapped with why. Made by the pure mappers (src/integrations/<name>/import-map.ts);
 * applied by src/services/importers. Pure: no I/O.
 */
import type { Role } from '../roles';

export const IMPORT_SYSTEMS = ['pagerduty', 'opsgenie'] as const;
export type ImportSystem = (typeof IMPORT_SYSTEMS)[number];

/** The kinds an import reports, in the order it applies them. */
export const IMPORT_KINDS = ['user', 'contact_method', 'notification_rule', 'team', 'schedule', 'escalation_policy', 'service', 'source'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** Something of the source that is not (or not wholly) brought in, and why. */
export interface Skipped {
  kind: ImportKind;
  /** The source object's id; a part of one is `<id>/<part>` (a layer, a rule). */
  external_id: string;
  name: string;
  why: string;
}

/** A time window of a layer, in the schedule's zone (the `restrictions` shape of a Klaxon layer). */
export interface PlannedRestriction {
  type: 'daily' | 'weekly';
  /** ISO day of the week the window opens, 1 = Monday (weekly windows only). */
  start_day?: number;
  /** "HH:MM", local. */
  start_time: string;
  duration_seconds: number;
}

export interface PlannedUser {
  externalId: string;
  name: string;
  /** Lower-cased: people are matched by email. */
  email: string;
  /** The role a new member gets (src/domain/importers/roles.ts); a member already keeps theirs. */
  role: Role;
}

/** A way the source pages a person, as a Klaxon contact method (paged at once: docs/importers.md). */
export interface PlannedContactMethod {
  /** `<user id>/<contact method id>` in the source. */
  externalId: string;
  /** External id of its person. */
  user: string;
  type: 'sms' | 'voice' | 'email';
  /** Normalised as the channel stores it (E.164, lower-cased email). */
  address: string;
  label: string | null;
}

/** A high-urgency rule (or rule step) of the source: page on this contact method this long after the person is paged. */
export interface PlannedNotificationRule {
  /** `<user id>/<rule id>` (Opsgenie: `<user id>/<rule id>/<step id>`) in the source. */
  externalId: string;
  user: string;
  /** External id of the PlannedContactMethod it pages on. */
  contactMethod: string;
  delaySeconds: number;
}

export interface PlannedTeam {
  externalId: string;
  name: string;
  /** External ids of users. */
  members: string[];
}

export interface PlannedLayer {
  /** External id of the layer (or rotation), for messages. */
  externalId: string;
  name: string;
  /** External ids of users, in rotation order. */
  users: string[];
  rotation: { unit: 'hours' | 'days' | 'weeks'; length: number };
  /** Local "HH:mm" of every handoff. */
  handoff_time: string;
  /** Local date of the first handoff. */
  start: string;
  restrictions?: PlannedRestriction[];
}

export interface PlannedOverride {
  externalId: string;
  /** External id of the user on call. */
  user: string;
  from: string;
  to: string;
}

export interface PlannedSchedule {
  externalId: string;
  name: string;
  timeZone: string;
  /** Lowest first: in Klaxon upper (later) layers win. */
  layers: PlannedLayer[];
  overrides: PlannedOverride[];
}

export interface PlannedTarget {
  type: 'user' | 'schedule' | 'team';
  externalId: string;
}

export interface PlannedPolicy {
  externalId: string;
  name: string;
  /** `delaySeconds`: the wait after the step before the next (after the last: before a repeat). */
  steps: Array<{ delaySeconds: number; targets: PlannedTarget[] }>;
  repeat: number;
}

export interface PlannedService {
  externalId: string;
  name: string;
  description: string | null;
  /** External id of its escalation policy, or null (Klaxon then pages the owning team). */
  policy: string | null;
  /** External id of its owning team, or null: the workspace's first team owns it. */
  team: string | null;
}

export interface PlannedSource {
  externalId: string;
  name: string;
  /** External id of the service the source feeds. */
  service: string;
  /** Kept as the source's routing key (32 lowercase hex). */
  routingKey: string;
}

/** Everything an import would bring in, by external id, and what it cannot. */
export interface ImportPlan {
  system: ImportSystem;
  users: PlannedUser[];
  contactMethods: PlannedContactMethod[];
  notificationRules: PlannedNotificationRule[];
  teams: PlannedTeam[];
  schedules: PlannedSchedule[];
  policies: PlannedPolicy[];
  services: PlannedService[];
  sources: PlannedSource[];
  skipped: Skipped[];
}

/** One object brought in (or that would be, in a dry run: `id` null until it exists). */
export interface MappingEntry {
  kind: ImportKind;
  external_id: string;
  id: string | null;
  name: string;
}

/** The answer of an import, the same in a dry run (what would be created and updated). */
export interface ImportReport {
  created: Record<ImportKind, number>;
  updated: Record<ImportKind, number>;
  skipped: Skipped[];
  mapping: MappingEntry[];
}

/** Every kind at zero. */
export const zeroCounts = (): Record<ImportKind, number> => Object.fromEntries(IMPORT_KINDS.map((k) => [k, 0])) as Record<ImportKind, number>;
