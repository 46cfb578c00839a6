import { numberOrUndefined } from './heartbeats';
import type { Monitor, MonitorMethod } from './types';

/** The monitor form's values, as its inputs hold them. */
export interface MonitorFormValues {
  name: string;
  service_id: string;
  url: string;
  method: MonitorMethod;
  interval_seconds: number | string;
  timeout_seconds: number | string;
  /** "200, 204"; empty: any 2xx. */
  expected_status_codes: string;
  /** Empty: no keyword check. */
  keyword: string;
  failure_threshold: number | string;
}

/** The settings POST and PUT /api/monitors take. */
export interface MonitorBody {
  name: string;
  service_id: string;
  url: string;
  method: MonitorMethod;
  interval_seconds?: number;
  timeout_seconds?: number;
  expected_status_codes: number[] | null;
  keyword: string | null;
  failure_threshold?: number;
}

/** A new monitor's starting values: the server's defaults, and the FREE plan's shortest interval. */
export const NEW_MONITOR: MonitorFormValues = {
  name: '',
  service_id: '',
  url: 'https://',
  method: 'GET',
  interval_seconds: 300,
  timeout_seconds: 10,
  expected_status_codes: '',
  keyword: '',
  failure_threshold: 3,
};

export function formOfMonitor(m: Monitor): MonitorFormValues {
  return {
    name: m.name,
    service_id: m.service_id,
    url: m.url,
    method: m.method,
    interval_seconds: m.interval_seconds,
    timeout_seconds: m.timeout_seconds,
    expected_status_codes: m.expected_status_codes?.join(', ') ?? '',
    keyword: m.keyword ?? '',
    failure_threshold: m.failure_threshold,
  };
}

/** A form the browser can refuse before asking: the field and why, worded as the server words it. */
export interface FormProblem {
  field: string;
  message: string;
}

/** "200, 204 301" → [200, 204, 301]; empty → null (any 2xx); anything else is a problem to show. */
export function parseStatusCodes(text: string): number[] | null | FormProblem {
  const tokens = text.split(/[\s,]+/).filter(Boolean);
  if (tokens.length === 0) return null;
  const bad = tokens.find((t) => !/^\d{3}$/.test(t));
  if (bad !== undefined)
    return { field: 'expected_status_codes', message: `expected_status_codes: "${bad}" is not an HTTP status (three digits, e.g. 200, 204)` };
  return tokens.map(Number);
}

/** The form as the API's body, or the problem that keeps it from being sent. */
export function monitorBody(v: MonitorFormValues): MonitorBody | FormProblem {
  const codes = parseStatusCodes(v.expected_status_codes);
  if (codes !== null && !Array.isArray(codes)) return codes;
  return {
    name: v.name,
    service_id: v.service_id,
    url: v.url.trim(),
    method: v.method,
    interval_seconds: numberOrUndefined(v.interval_seconds),
    timeout_seconds: numberOrUndefined(v.timeout_seconds),
    expected_status_codes: codes,
    keyword: v.keyword === '' ? null : v.keyword,
    failure_threshold: numberOrUndefined(v.failure_threshold),
  };
}

export const isProblem = (x: MonitorBody | FormProblem): x is FormProblem => 'field' in x && 'message' in x;

/**
 * Only what changed, for PUT: an unchanged service is not sent (moving needs rights on both
 * teams), and the audit entry lists just the fields changed.
 */
export function monitorChanges(original: Monitor, body: MonitorBody): Partial<MonitorBody> {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body) as Array<[keyof MonitorBody, unknown]>) {
    if (JSON.stringify(value) !== JSON.stringify(original[key])) changes[key] = value;
  }
  return changes as Partial<MonitorBody>;
}
