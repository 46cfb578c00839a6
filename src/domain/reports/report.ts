/**
 * What a report holds, and which parts each type shows. Pure: the figures are computed
 * (aggregate.ts) from rows the service reads (src/services/reports/queries.ts).
 */
import type { IncidentStatus } from '../incident-lifecycle';
import type { Severity } from '../severity';
import type { DurationStats } from './durations';

export const REPORT_TYPES = ['summary', 'detailed', 'incidents', 'performance'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const REPORT_FORMATS = ['json', 'csv', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** One incident of the range, with its first acknowledgement and first resolve from its timeline. */
export interface IncidentFact {
  number: number;
  title: string;
  severity: Severity;
  status: IncidentStatus;
  createdAt: Date;
  acknowledgedAt: Date | null;
  resolvedAt: Date | null;
  serviceId: string | null;
  serviceName: string | null;
  /** The service's owning team (the incident's own when it has no service). */
  teamId: string;
  teamName: string | null;
  /** The calendar day it opened on, in the report's zone. */
  day: string;
}

export interface IncidentRow {
  number: number;
  title: string;
  service: string | null;
  severity: Severity;
  status: IncidentStatus;
  created_at: string;
  acknowledged_at: string | null;
  resolved_at: string | null;
  /** Seconds from creation to the first acknowledgement (null: never acknowledged). */
  tta: number | null;
  /** Seconds from creation to the first resolve (null: never resolved). */
  ttr: number | null;
}

export interface ServicePerformance {
  service_id: string | null;
  service: string;
  team_id: string;
  team: string;
  incidents: number;
  mtta: DurationStats;
  mttr: DurationStats;
}

export interface TeamPerformance {
  team_id: string;
  team: string;
  incidents: number;
  mtta: DurationStats;
  mttr: DurationStats;
}

export interface Totals {
  incidents: number;
  acknowledged: number;
  resolved: number;
  /** Not yet RESOLVED or CLOSED. */
  open: number;
  alerts: number;
  pages: number;
}

export interface ChannelPages {
  channel: string;
  pages: number;
  failed: number;
}

export interface NightPages {
  user_id: string;
  name: string | null;
  email: string;
  time_zone: string;
  pages: number;
  night_pages: number;
}

export interface NoisySource {
  source_id: string;
  source: string;
  service: string | null;
  alerts: number;
}

/** Everything a report can show; each type shows its own parts (`SECTIONS`). */
export interface Report {
  type: ReportType;
  range: { from: string; to: string; time_zone: string; time_zone_source: 'user' | 'default_utc' };
  generated_at: string;
  totals?: Totals;
  mtta?: DurationStats;
  mttr?: DurationStats;
  by_severity?: Array<{ severity: Severity; count: number }>;
  by_status?: Array<{ status: IncidentStatus; count: number }>;
  incidents_per_day?: Array<{ day: string; count: number }>;
  per_service?: ServicePerformance[];
  per_team?: TeamPerformance[];
  pages_by_channel?: ChannelPages[];
  night_pages?: NightPages[];
  noisy_sources?: NoisySource[];
  incidents?: IncidentRow[];
}

export type Section = Exclude<keyof Report, 'type' | 'range' | 'generated_at'>;

/** The parts each type shows. */
export const SECTIONS: Readonly<Record<ReportType, readonly Section[]>> = {
  summary: ['totals', 'mtta', 'mttr', 'by_severity', 'by_status', 'incidents_per_day'],
  performance: ['mtta', 'mttr', 'per_service', 'per_team'],
  incidents: ['incidents'],
  detailed: [
    'totals',
    'mtta',
    'mttr',
    'by_severity',
    'by_status',
    'incidents_per_day',
    'per_service',
    'per_team',
    'pages_by_channel',
    'night_pages',
    'noisy_sources',
    'incidents',
  ],
};

/** Whether a type needs a part: the service skips the queries of parts nobody will see. */
export const shows = (type: ReportType, section: Section): boolean => SECTIONS[type].includes(section);
