import type { PagingChannel } from '../paging/channels';
/** Paging drills as /api/drills and /api/drill-schedules answer them (docs/drills.md). */
export type DrillTargetType = 'user' | 'team' | 'schedule';

export interface DrillResult {
  user_id: string;
  user_name: string;
  channel: string | null;
  contact_method_id: string | null;
  /** `skipped`: a recurring drill found them drilled on that channel within the hour (`error` says when). */
  status: 'pending' | 'delivered' | 'failed' | 'skipped';
  latency_ms: number | null;
  acknowledged_at: string | null;
  error: string | null;
}

export interface Drill {
  id: string;
  target: { type: DrillTargetType; id: string };
  channels: string[] | null;
  drill_schedule_id: string | null;
  created_at: string;
  finished_at: string | null;
  results: DrillResult[];
}

export interface DrillSchedule {
  id: string;
  target: { type: DrillTargetType; id: string };
  channels: string[] | null;
  cron: string;
  time_zone: string;
  created_at: string;
}

/** The channels a drill may send on, as the channel picker lists them. */
export const drillChannelOptions = (channels: readonly PagingChannel[] | undefined) =>
  (channels ?? []).filter((c) => c.drillable).map((c) => ({ value: c.id, label: c.label }));

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** A result's channel as people read it: its label from `GET /api/channels`, else its id. */
export const channelLabel = (c: string | null, channels?: readonly PagingChannel[]) => channels?.find((d) => d.id === c)?.label ?? c ?? '—';

/** What a result says in a word: acknowledged beats delivered. */
export function resultLabel(r: DrillResult): { label: string; color: string } {
  if (r.status === 'failed') return { label: 'Failed', color: 'red' };
  if (r.status === 'pending') return { label: 'Sending', color: 'gray' };
  if (r.status === 'skipped') return { label: 'Skipped', color: 'gray' };
  return r.acknowledged_at ? { label: 'Acknowledged', color: 'green' } : { label: 'Delivered', color: 'blue' };
}

export const formatLatency = (ms: number | null) => (ms === null ? '—' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);
