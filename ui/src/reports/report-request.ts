import type { ReportType } from '../../../src/domain/reports/report';

/** The report types POST /api/reports/generate offers, in the words the picker shows. */
export const REPORT_TYPE_OPTIONS: Array<{ value: ReportType; label: string; description: string }> = [
  { value: 'summary', label: 'Summary', description: 'totals, MTTA and MTTR, incidents by severity, status and day' },
  { value: 'performance', label: 'Performance', description: 'MTTA and MTTR per service and per team' },
  { value: 'incidents', label: 'Incidents', description: 'every incident with its times to acknowledge and resolve' },
  { value: 'detailed', label: 'Detailed', description: 'all of the above, plus pages per channel, night-time pages and the noisiest sources' },
];

/** A report's parameters; no dateRange: the server's default (the last 30 days, cut to the plan's history). */
export interface ReportRequest {
  type: ReportType;
  dateRange?: string;
}

/** A range the browser refuses before asking, worded and keyed as the server's errors are. */
export interface RangeProblem {
  field: 'dateRange';
  message: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The request for a type and the days picked (null: none picked yet), or why the days cannot be asked for. */
export function reportRequest(type: ReportType, range: { from: string; to: string } | null): ReportRequest | RangeProblem {
  if (!range) return { type };
  if (!DAY.test(range.from) || !DAY.test(range.to)) return { field: 'dateRange', message: 'dateRange: pick both the first and the last day' };
  // ISO days compare as strings.
  if (range.to < range.from) return { field: 'dateRange', message: `dateRange: the end (${range.to}) is before the start (${range.from})` };
  return { type, dateRange: `${range.from} to ${range.to}` };
}

export const isRangeProblem = (x: ReportRequest | RangeProblem): x is RangeProblem => 'field' in x;
