import type { DurationStats } from '../../../src/domain/reports/durations';
import type { Report } from '../../../src/domain/reports/report';
import { SEVERITIES, type Severity } from '../../../src/domain/severity';

/** Chart colours (Mantine's shade 6), one per severity, highest the hottest. */
export const SEVERITY_COLORS: Record<Severity, string> = { CRITICAL: '#fa5252', HIGH: '#fd7e14', MEDIUM: '#fab005', LOW: '#228be6', INFO: '#868e96' };

/** The calendar day (YYYY-MM-DD) of an instant in a time zone: the report's days are in the asker's zone. */
export function dayIn(iso: string, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

/** Every day from `from` to `to`, both included. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); d.toISOString().slice(0, 10) <= to; d = new Date(d.getTime() + 86_400_000))
    days.push(d.toISOString().slice(0, 10));
  return days;
}

/** A chart's rows and the series (bar keys) they hold. */
export interface Series {
  /** One per day: `day` and a count per key. */
  rows: Array<Record<string, string | number>>;
  keys: string[];
}

/**
 * Incidents per day: stacked by severity when the report lists its incidents (incidents,
 * detailed), else the per-day counts (summary). Every day of the range has a row, so quiet days
 * show as gaps rather than disappearing. Null when the report has neither.
 */
export function dailySeries(report: Report): Series | null {
  const days = daysOf(report.range.from, report.range.to);
  if (report.incidents) {
    const counts = new Map(days.map((d) => [d, Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>]));
    for (const i of report.incidents) {
      const row = counts.get(dayIn(i.created_at, report.range.time_zone));
      if (row) row[i.severity] += 1;
    }
    const keys = SEVERITIES.filter((s) => report.incidents!.some((i) => i.severity === s));
    return { keys, rows: days.map((day) => ({ day, ...counts.get(day) })) };
  }
  if (report.incidents_per_day) {
    const byDay = new Map(report.incidents_per_day.map((d) => [d.day, d.count]));
    return { keys: ['incidents'], rows: days.map((day) => ({ day, incidents: byDay.get(day) ?? 0 })) };
  }
  return null;
}

const minutes = (s: DurationStats) => (s.mean === null ? null : Math.round((s.mean / 60) * 10) / 10);

/** Mean MTTA and MTTR in minutes per service or team (null where nothing counted: no bar). */
export function performanceSeries(
  rows: Array<{ name: string; mtta: DurationStats; mttr: DurationStats }>,
): Array<{ name: string; mtta: number | null; mttr: number | null }> {
  return rows.map((r) => ({ name: r.name, mtta: minutes(r.mtta), mttr: minutes(r.mttr) }));
}

/** How many incidents the report covers, from whichever part its type has. */
export function incidentCount(report: Report): number {
  if (report.totals) return report.totals.incidents;
  if (report.incidents) return report.incidents.length;
  return (report.per_team ?? []).reduce((sum, t) => sum + t.incidents, 0);
}
