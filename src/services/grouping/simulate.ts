import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { replayGrouping, type ReplayAlert, type ReplayIncident, type ReplayResult } from '../../domain/grouping/replay';
import type { GroupingRule } from '../../domain/grouping/rules';
import { withWhatIfSlot } from '../paging/what-if-slots';

/** Bounds of a grouping replay (docs/grouping.md, "Replay"). */
export const GROUPING_REPLAY_BOUNDS = {
  maxRangeDays: 90,
  /** Alerts replayed at most (the oldest first); past it the answer says `truncated`. */
  maxAlerts: 200_000,
  /** Alerts read per query: memory holds the replay's state, not a page of rows per alert. */
  readPage: 5_000,
  groups: 1_000,
  splitLost: 1_000,
} as const;

export type GroupingReplayAnswer = ReplayResult & {
  from: string;
  to: string;
  alerts_replayed: number;
  truncated: boolean;
  groups_truncated: boolean;
  split_lost_truncated: boolean;
};

interface AlertRow {
  id: string;
  incident_id: string;
  title: string;
  severity: string;
  sender: string;
  metadata: Record<string, unknown> | null;
  tags: Record<string, string> | null;
  dedup_key: string | null;
  created_at: Date | string;
  resolved_at: Date | string | null;
}

/**
 * Replays the service's alerts of [from, to) under draft rules (design §26 "Replay before
 * saving"), holding one of the workspace's simulation slots (shared with what-if, so at most two
 * replays of either kind run at once). Reads alerts by keyset pages and yields to the event loop
 * between replay slices.
 */
export async function simulateGrouping(
  orm: MikroORM,
  input: { organizationId: string; serviceId: string; rules: GroupingRule[]; from: Date; to: Date },
): Promise<GroupingReplayAnswer> {
  return withWhatIfSlot(orm, input.organizationId, async () => {
    const k = knexOf(orm);
    const alerts: ReplayAlert[] = [];
    let after: { at: Date | string; id: string } | null = null;
    let truncated = false;
    for (;;) {
      const q = k('alerts')
        .where({ service_id: input.serviceId, organization_id: input.organizationId })
        .andWhere('created_at', '>=', input.from)
        .andWhere('created_at', '<', input.to)
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .limit(GROUPING_REPLAY_BOUNDS.readPage)
        .select<AlertRow[]>('id', 'incident_id', 'title', 'severity', 'sender', 'metadata', 'tags', 'dedup_key', 'created_at', 'resolved_at');
      if (after) {
        const { at, id } = after;
        q.andWhere((w) => w.where('created_at', '>', at).orWhere((x) => x.where('created_at', '=', at).andWhere('id', '>', id)));
      }
      const rows = await q;
      for (const r of rows) {
        if (alerts.length === GROUPING_REPLAY_BOUNDS.maxAlerts) {
          truncated = true;
          break;
        }
        alerts.push({ ...r, created_at: new Date(r.created_at).getTime(), resolved_at: r.resolved_at === null ? null : new Date(r.resolved_at).getTime() });
      }
      if (truncated || rows.length < GROUPING_REPLAY_BOUNDS.readPage) break;
      const last = rows[rows.length - 1];
      after = { at: last.created_at, id: last.id };
      await yieldToLoop();
    }
    const incidents = await incidentsOf(orm, [...new Set(alerts.map((a) => a.incident_id))]);
    const steps = replayGrouping(alerts, incidents, input.rules, { groups: GROUPING_REPLAY_BOUNDS.groups, splitLost: GROUPING_REPLAY_BOUNDS.splitLost });
    for (;;) {
      const step = steps.next();
      if (step.done) {
        return { from: input.from.toISOString(), to: input.to.toISOString(), alerts_replayed: alerts.length, truncated, ...step.value };
      }
      await yieldToLoop();
    }
  });
}

/** The real incidents the alerts joined, and whether each paged (any page attempt recorded). */
async function incidentsOf(orm: MikroORM, ids: string[]): Promise<Map<string, ReplayIncident>> {
  const out = new Map<string, ReplayIncident>();
  const k = knexOf(orm);
  for (let i = 0; i < ids.length; i += 5_000) {
    const { rows } = (await k.raw(
      `select i.id, i.number, i.title, exists (select 1 from notifications n where n.incident_id = i.id) as paged
       from incidents i where i.id = any(?::uuid[])`,
      [`{${ids.slice(i, i + 5_000).join(',')}}`],
    )) as { rows: ReplayIncident[] };
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}
