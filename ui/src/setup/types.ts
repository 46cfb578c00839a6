/** The catalog objects the Set up page edits (docs/api/services-sources-heartbeats.md, webhooks.md). */
export type { TeamDetail, TeamSummary as Team } from '../../../src/services/workspace/teams';
export interface Service {
  id: string;
  name: string;
  owning_team_id: string;
  escalation_policy_id: string | null;
}
export interface Policy {
  id: string;
  name: string;
}
export interface Webhook {
  id: string;
  name: string;
  status: 'ACTIVE' | 'PAUSED';
  /** Its storm guard (null: off) and whether a storm is on now (docs/grouping.md). */
  storm?: { max_new_incidents: number; within_seconds: number; quiet_seconds: number } | null;
  in_storm?: boolean;
  webhook_url: string | null;
  /** The PagerDuty routing_key / Opsgenie GenieKey of the compatible intakes (docs/compat-intake.md). */
  routing_key: string;
  notification_types: string[];
  service_id?: string | null;
}
export interface TestResult {
  notification_type: string;
  channel: string;
  to: string | null;
  status: string;
  error?: string | null;
}
