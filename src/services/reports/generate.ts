/**
 * Generating a report (issue 14): read the workspace's incidents of the range, their first
 * acknowledgement and resolve from the timeline, pages and alerts, and compute what the report's
 * type shows. Dates are read in the reader's own time zone (`users.time_zone`), else UTC:
 * workspaces have no time zone of their own.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { IANAZone } from 'luxon';
import { knexOf } from '../../db/knex';
import { PLAN_LIMITS, type Plan } from '../../domain/plans';
import { daysOf, parseDateRange, rangeInstants } from '../../domain/reports/date-range';
import { isNightHour, personZone } from '../../domain/reports/night';
import { aggregateIncidents, nightPagesOf } from '../../domain/reports/aggregate';
import { shows, type Report, type ReportType } from '../../domain/reports/report';
import { invalid } from '../errors';
import { alertCount, incidentFacts, noisySources, pageCount, pagedPeople, pagesByChannel, pagesByLocalHour, readerZone, type Scope } from './queries';

/** Where a workspace's dates are read when nobody set a zone: workspaces have none. */
export const DEFAULT_ZONE = 'UTC';
/** How many of the noisiest sources a report lists. */
export const NOISY_SOURCES = 10;

/** Who asks for which report. */
export interface ReportRequest {
  organizationId: string;
  plan: Plan;
  userId: string;
  type: ReportType;
  dateRange?: string;
}

/** A zone both luxon (the range) and Postgres (days, hours) read the same way; else the default. */
const usableZone = (zone: string | null): string | null => (zone && IANAZone.isValidZone(zone) ? zone : null);

/** Builds the report a request asks for; 400 naming `dateRange` when the range cannot be read or is outside the plan's history. */
export async function generateReport(orm: MikroORM, request: ReportRequest, now = new Date()): Promise<Report> {
  const db = knexOf(orm);
  const ownZone = usableZone(await readerZone(db, request.userId));
  const zone = ownZone ?? DEFAULT_ZONE;
  const parsed = parseDateRange(request.dateRange, { now, zone, historyDays: PLAN_LIMITS[request.plan].historyDays });
  if (!parsed.ok) throw invalid(parsed.message, 'invalid_request');
  const { range } = parsed;
  const scope: Scope = { organizationId: request.organizationId, ...rangeInstants(range) };
  const want = (section: Parameters<typeof shows>[1]) => shows(request.type, section);

  const facts = await incidentFacts(db, scope, zone);
  const figures = aggregateIncidents(facts, daysOf(range));
  const report: Report = {
    type: request.type,
    range: { from: range.from, to: range.to, time_zone: zone, time_zone_source: ownZone ? 'user' : 'default_utc' },
    generated_at: now.toISOString(),
  };
  if (want('totals')) report.totals = { ...figures.counts, alerts: await alertCount(db, scope), pages: await pageCount(db, scope) };
  if (want('mtta')) report.mtta = figures.mtta;
  if (want('mttr')) report.mttr = figures.mttr;
  if (want('by_severity')) report.by_severity = figures.by_severity;
  if (want('by_status')) report.by_status = figures.by_status;
  if (want('incidents_per_day')) report.incidents_per_day = figures.incidents_per_day;
  if (want('per_service')) report.per_service = figures.per_service;
  if (want('per_team')) report.per_team = figures.per_team;
  if (want('pages_by_channel')) report.pages_by_channel = await pagesByChannel(db, scope);
  if (want('night_pages')) {
    const people = (await pagedPeople(db, scope)).map((p) => ({ ...p, zone: personZone(usableZone(p.timeZone), DEFAULT_ZONE) }));
    const byHour = await pagesByLocalHour(db, scope, new Map(people.map((p) => [p.userId, p.zone])));
    report.night_pages = nightPagesOf(people, byHour, isNightHour);
  }
  if (want('noisy_sources')) report.noisy_sources = await noisySources(db, scope, NOISY_SOURCES);
  if (want('incidents')) report.incidents = figures.incidents;
  return report;
}
