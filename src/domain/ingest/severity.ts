/**
 * Severity words of native senders and of Form A, mapped onto our two scales: the
 * three-word event scale (fixtures README) and the incident scale (src/domain/severity.ts).
 */
import type { Severity } from '../severity';
import type { EventSeverity } from './types';

// The README's normalisation table, keys lower case. Sender-specific words whose meaning
// clashes with this table (New Relic HIGH is a warning, Zabbix High is critical) are
// mapped by the sender's own module, not here.
const EVENT_SEVERITY_WORDS: Readonly<Record<string, EventSeverity>> = {
  critical: 'critical',
  error: 'critical',
  fatal: 'critical',
  emergency: 'critical',
  disaster: 'critical',
  high: 'critical',
  sev0: 'critical',
  sev1: 'critical',
  p1: 'critical',
  p2: 'critical',
  triggered: 'critical',
  alarm: 'critical',
  down: 'critical',
  warning: 'warning',
  warn: 'warning',
  average: 'warning',
  medium: 'warning',
  sev2: 'warning',
  'no data': 'warning',
  insufficient_data: 'warning',
  info: 'info',
  information: 'info',
  'not classified': 'info',
  low: 'info',
  debug: 'info',
  sev3: 'info',
  sev4: 'info',
  recovered: 'info',
  ok: 'info',
  up: 'info',
};

/** A native severity word (any case) on the event scale; missing or unknown → warning. */
export function normaliseSeverity(value: unknown): EventSeverity {
  if (typeof value !== 'string') return 'warning';
  const key = value.trim().toLowerCase();
  return Object.hasOwn(EVENT_SEVERITY_WORDS, key) ? EVENT_SEVERITY_WORDS[key] : 'warning';
}

/** Zabbix's numeric severity 0-5 (as number or string); anything else → warning. */
export function zabbixSeverity(value: unknown): EventSeverity {
  const digits = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^[0-5]$/.test(digits)) return 'warning';
  const level = Number(digits);
  if (level >= 4) return 'critical';
  return level >= 2 ? 'warning' : 'info';
}

const INCIDENT_SEVERITY: Readonly<Record<EventSeverity, Severity>> = {
  critical: 'CRITICAL',
  warning: 'MEDIUM',
  info: 'INFO',
};

/** The incident severity an event opens with (critical → CRITICAL, warning → MEDIUM, info → INFO). */
export function toIncidentSeverity(severity: EventSeverity): Severity {
  return INCIDENT_SEVERITY[severity];
}

const FORM_A_SEVERITY: Readonly<Record<string, Severity>> = {
  critical: 'CRITICAL',
  high: 'HIGH',
  error: 'HIGH',
  medium: 'MEDIUM',
  warning: 'MEDIUM',
  low: 'LOW',
  info: 'INFO',
};

/** Form A's `severity` in any case on the incident scale; undefined (→ 400) when unknown. */
export function parseFormASeverity(value: string): Severity | undefined {
  const key = value.trim().toLowerCase();
  return Object.hasOwn(FORM_A_SEVERITY, key) ? FORM_A_SEVERITY[key] : undefined;
}
