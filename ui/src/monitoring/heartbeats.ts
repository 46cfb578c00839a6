import type { Heartbeat } from './types';

/** What a heartbeat's row says about it. */
export type HeartbeatState = 'paused' | 'waiting' | 'up' | 'late';

/**
 * From its last ping: late once period + grace passed without one (its workflow then opens an
 * incident), waiting before the first ping (the workflow only starts with it).
 */
export function heartbeatState(hb: Pick<Heartbeat, 'status' | 'last_ping_at' | 'period_seconds' | 'grace_seconds'>, now: Date): HeartbeatState {
  if (hb.status === 'PAUSED') return 'paused';
  if (!hb.last_ping_at) return 'waiting';
  const due = new Date(hb.last_ping_at).getTime() + (hb.period_seconds + hb.grace_seconds) * 1000;
  return now.getTime() > due ? 'late' : 'up';
}

export const HEARTBEAT_STATE_LABELS: Record<HeartbeatState, { label: string; color: string }> = {
  paused: { label: 'Paused', color: 'gray' },
  waiting: { label: 'Waiting for first ping', color: 'blue' },
  up: { label: 'Up', color: 'green' },
  late: { label: 'Late', color: 'red' },
};

/** The create form's values: number inputs give '' when emptied. */
export interface HeartbeatFormValues {
  name: string;
  service_id: string;
  period_seconds: number | string;
  grace_seconds: number | string;
}

export const NEW_HEARTBEAT: HeartbeatFormValues = { name: '', service_id: '', period_seconds: 3600, grace_seconds: 60 };

/** The body of POST /api/heartbeats; an empty grace is left out so the server's default (60 s) applies. */
export function heartbeatBody(v: HeartbeatFormValues): Record<string, unknown> {
  const body: Record<string, unknown> = { service_id: v.service_id, name: v.name, period_seconds: numberOrUndefined(v.period_seconds) };
  const grace = numberOrUndefined(v.grace_seconds);
  if (grace !== undefined) body.grace_seconds = grace;
  return body;
}

/** '' (an emptied number input) is no value; the server names the field when it is required. */
export const numberOrUndefined = (v: number | string): number | undefined => (v === '' ? undefined : Number(v));
