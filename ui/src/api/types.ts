/** The shapes the dashboard reads from /api (see /api/openapi.json). */

export interface SessionView {
  user: { id: string; email: string; name: string | null; verified: boolean };
  organization: { id: string; name: string; plan: string };
  role: 'BILLING_OWNER' | 'ACCOUNT_ADMIN' | 'TEAM_MANAGER' | 'MEMBER' | 'STAKEHOLDER';
  csrf_token: string;
}

export type IncidentStatus = 'TRIGGERED' | 'ACKNOWLEDGED' | 'INVESTIGATING' | 'RESOLVED' | 'CLOSED';

export interface Incident {
  id: string;
  number: number;
  title: string;
  description: string | null;
  severity: string;
  status: IncidentStatus;
  service_id: string | null;
  owning_team_id: string;
  alert_count: number;
  created_at: string;
  acknowledged_at: string | null;
  resolved_at: string | null;
  closed_at: string | null;
  /** TRIGGERED, and a maintenance window holds its paging until `paging_held_until` (docs/maintenance-windows.md). */
  paging_held?: boolean;
  paging_held_until?: string | null;
  /** An incident a grouping rule opened: the rule and its group key (docs/grouping.md). */
  grouping?: { rule: string; key: string };
  /** A source's storm incident: that source. */
  storm_source_id?: string;
  links: { temporal_ui: string | null };
}

export interface AlertView {
  id: string;
  title: string;
  message: string | null;
  severity: string;
  status: string;
  source: string | null;
  tags: Record<string, string> | null;
  url: string | null;
  created_at: string;
  /** What the sender said besides (the incident page's answer only; docs/incident-page.md). */
  dedup_key?: string | null;
  description?: string | null;
  /** As sent: `labels`, `links`, custom details. */
  metadata?: Record<string, unknown>;
}

/** One timeline entry and one page sent: the server's own types (src/domain/incident-trace.ts). */
export type { PageJson as Page, TimelineEntryJson as TimelineEntry } from '../../../src/domain/incident-trace';
import type { PageJson, TimelineEntryJson } from '../../../src/domain/incident-trace';

export interface IncidentDetail extends Incident {
  /** The incident's service, for its name and a link to its page; null when it has none. */
  service?: { id: string; name: string } | null;
  alerts: AlertView[];
  timeline: TimelineEntryJson[];
  pages: PageJson[];
}
