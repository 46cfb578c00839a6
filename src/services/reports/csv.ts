/**
 * A report as CSV (RFC 4180: CRLF, quoted where needed, a header row). The `incidents` type is
 * its table, one row per incident. The other types are flattened to `section,group,metric,value`
 * rows, one figure each, so every part fits one table (documented in docs/api/reports.md).
 */
import { stringify } from 'csv-stringify/sync';
import type { DurationStats } from '../../domain/reports/durations';
import type { IncidentRow, Report } from '../../domain/reports/report';

/** The columns of the `incidents` type. */
export const INCIDENT_COLUMNS = [
  'number',
  'title',
  'service',
  'severity',
  'status',
  'created_at',
  'acknowledged_at',
  'resolved_at',
  'tta_seconds',
  'ttr_seconds',
] as const;
/** The columns of every other type. */
export const FIGURE_COLUMNS = ['section', 'group', 'metric', 'value'] as const;

type Cell = string | number | null;

/**
 * A spreadsheet runs a cell starting with = + - @ as a formula; incident titles and source names
 * come from outside, so such text is prefixed with an apostrophe (numbers are left alone).
 */
const text = (value: string | null): string => (value !== null && /^[=+\-@\t\r]/.test(value) ? `'${value}` : (value ?? ''));
const cell = (value: Cell): string => (value === null ? '' : typeof value === 'number' ? String(value) : text(value));

const incidentCells = (r: IncidentRow): Cell[] => [
  r.number,
  r.title,
  r.service,
  r.severity,
  r.status,
  r.created_at,
  r.acknowledged_at,
  r.resolved_at,
  r.tta,
  r.ttr,
];

const stats = (prefix: string, s: DurationStats): Array<[string, Cell]> => [
  [`${prefix}_count`, s.count],
  [`${prefix}_mean`, s.mean],
  [`${prefix}_p50`, s.p50],
  [`${prefix}_p90`, s.p90],
];

/** Every figure of a report as (section, group, metric, value). */
function figureRows(report: Report): Cell[][] {
  const rows: Cell[][] = [];
  const put = (section: string, group: string | null, pairs: Array<[string, Cell]>) => {
    for (const [metric, value] of pairs) rows.push([section, group, metric, value]);
  };
  if (report.totals) put('totals', 'overall', Object.entries(report.totals));
  if (report.mtta) put('mtta', 'overall', stats('mtta', report.mtta));
  if (report.mttr) put('mttr', 'overall', stats('mttr', report.mttr));
  for (const s of report.by_severity ?? []) put('by_severity', s.severity, [['count', s.count]]);
  for (const s of report.by_status ?? []) put('by_status', s.status, [['count', s.count]]);
  for (const d of report.incidents_per_day ?? []) put('incidents_per_day', d.day, [['count', d.count]]);
  for (const s of report.per_service ?? []) {
    put('service', s.service, [['service_id', s.service_id], ['team', s.team], ['incidents', s.incidents], ...stats('mtta', s.mtta), ...stats('mttr', s.mttr)]);
  }
  for (const t of report.per_team ?? [])
    put('team', t.team, [['team_id', t.team_id], ['incidents', t.incidents], ...stats('mtta', t.mtta), ...stats('mttr', t.mttr)]);
  for (const c of report.pages_by_channel ?? [])
    put('pages_by_channel', c.channel, [
      ['pages', c.pages],
      ['failed', c.failed],
    ]);
  for (const p of report.night_pages ?? [])
    put('night_pages', p.email, [
      ['name', p.name],
      ['time_zone', p.time_zone],
      ['pages', p.pages],
      ['night_pages', p.night_pages],
    ]);
  for (const s of report.noisy_sources ?? [])
    put('noisy_sources', s.source, [
      ['source_id', s.source_id],
      ['service', s.service],
      ['alerts', s.alerts],
    ]);
  for (const r of report.incidents ?? []) {
    const values = incidentCells(r);
    put(
      'incident',
      String(r.number),
      INCIDENT_COLUMNS.slice(1).map((column, i): [string, Cell] => [column, values[i + 1]]),
    );
  }
  return rows;
}

/** The report as an RFC 4180 document. */
export function reportCsv(report: Report): string {
  const incidentsOnly = report.type === 'incidents';
  const columns = incidentsOnly ? INCIDENT_COLUMNS : FIGURE_COLUMNS;
  const rows = incidentsOnly ? (report.incidents ?? []).map(incidentCells) : figureRows(report);
  return stringify(
    rows.map((r) => r.map(cell)),
    { header: true, columns: [...columns], record_delimiter: 'windows' },
  );
}
