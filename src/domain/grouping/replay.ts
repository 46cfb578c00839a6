import { groupingOf, type GroupableAlert } from './match';
import type { GroupingRule } from './rules';

/** A stored alert as the replay reads it, oldest first. */
export interface ReplayAlert extends GroupableAlert {
  id: string;
  dedup_key: string | null;
  created_at: number;
  resolved_at: number | null;
  /** The incident it really joined, and whether that incident paged. */
  incident_id: string;
}

/** A real incident of the range, as the replay compares with it. */
export interface ReplayIncident {
  id: string;
  number: number;
  title: string;
  paged: boolean;
}

export interface ReplayGroup {
  key: string;
  rule: string;
  alerts: number;
  first_at: string;
  last_at: string;
}

export interface ReplayResult {
  pages_before: number;
  pages_after: number;
  incidents_before: number;
  incidents_after: number;
  groups: ReplayGroup[];
  split_lost: Array<{ incident_id: string; number: number; title: string; folded_into: string }>;
}

/** A simulated incident: who opened it (a real incident's alert), its group, its alerts. */
interface Simulated {
  openerIncident: string;
  rule: GroupingRule | null;
  key: string | null;
  createdAt: number;
  lastAt: number;
  alerts: number;
  /** Active alerts' resolve times (null: never resolved); closed once all passed. */
  activeUntil: number;
  firstAlerts: number[];
  paged: boolean;
}

/** Alerts replayed between two pauses of replayGrouping (so a long replay never holds the event loop). */
export const REPLAY_SLICE = 2000;

/**
 * Replays a service's alerts, oldest first, under grouping rules, routing each as ingestion does
 * (src/services/ingest/routing.ts): a dedup key joins its open incident; else the first matching
 * rule's open incident of the same key opened within `window_seconds`; else a new incident. An
 * incident stops taking alerts once every alert it holds has resolved. A simulated incident pages
 * when the real incident of any of its alerts paged and, under `page_after`, `count` alerts joined
 * within `within_seconds` of its first. Yields every REPLAY_SLICE alerts. docs/grouping.md, "Replay".
 */
export function* replayGrouping(
  alerts: readonly ReplayAlert[],
  incidents: ReadonlyMap<string, ReplayIncident>,
  rules: readonly GroupingRule[],
  limits: { groups: number; splitLost: number },
): Generator<void, ReplayResult & { groups_truncated: boolean; split_lost_truncated: boolean }, void> {
  const sims: Simulated[] = [];
  const byDedup = new Map<string, Simulated>();
  const byGroup = new Map<string, Simulated>();
  const simOfReal = new Map<string, Simulated>();
  const isOpen = (s: Simulated, at: number) => s.activeUntil > at;
  for (const [i, a] of alerts.entries()) {
    if (i > 0 && i % REPLAY_SLICE === 0) yield;
    const until = a.resolved_at ?? Number.POSITIVE_INFINITY;
    const dedup = a.dedup_key === null ? undefined : byDedup.get(a.dedup_key);
    let sim: Simulated | undefined = dedup && isOpen(dedup, a.created_at) ? dedup : undefined;
    const grouping = sim ? null : groupingOf(rules, a);
    if (!sim && grouping) {
      const g = byGroup.get(`${grouping.rule.name}\u0000${grouping.key}`);
      if (g && isOpen(g, a.created_at) && g.createdAt >= a.created_at - grouping.rule.window_seconds * 1000) sim = g;
    }
    if (sim) {
      sim.alerts++;
      sim.lastAt = a.created_at;
      sim.activeUntil = Math.max(sim.activeUntil, until);
      if (sim.rule?.page_after && sim.firstAlerts.length < sim.rule.page_after.count) sim.firstAlerts.push(a.created_at);
    } else {
      sim = {
        openerIncident: a.incident_id,
        rule: grouping?.rule ?? null,
        key: grouping?.key ?? null,
        createdAt: a.created_at,
        lastAt: a.created_at,
        alerts: 1,
        activeUntil: until,
        firstAlerts: [a.created_at],
        paged: false,
      };
      sims.push(sim);
      if (grouping) byGroup.set(`${grouping.rule.name}\u0000${grouping.key}`, sim);
      // As in ingestion, an incident is found by its opener's key only.
      if (a.dedup_key !== null) byDedup.set(a.dedup_key, sim);
    }
    if (incidents.get(a.incident_id)?.paged) sim.paged = true;
    if (!simOfReal.has(a.incident_id)) simOfReal.set(a.incident_id, sim);
  }
  const pages = (s: Simulated) => {
    if (!s.paged) return false;
    const hold = s.rule?.page_after;
    if (!hold) return true;
    return s.firstAlerts.length >= hold.count && s.firstAlerts[hold.count - 1] - s.firstAlerts[0] <= hold.within_seconds * 1000;
  };
  const grouped = sims.filter((s) => s.rule !== null).sort((x, y) => y.alerts - x.alerts || x.createdAt - y.createdAt);
  const splitLost: ReplayResult['split_lost'] = [];
  let splitLostCount = 0;
  for (const [realId, sim] of simOfReal) {
    const real = incidents.get(realId);
    if (!real?.paged || sim.openerIncident === realId) continue;
    splitLostCount++;
    if (splitLost.length < limits.splitLost) {
      splitLost.push({
        incident_id: real.id,
        number: real.number,
        title: real.title,
        folded_into: sim.key ?? `incident ${incidents.get(sim.openerIncident)?.number ?? ''}`.trim(),
      });
    }
  }
  return {
    pages_before: [...incidents.values()].filter((r) => r.paged).length,
    pages_after: sims.filter(pages).length,
    incidents_before: incidents.size,
    incidents_after: sims.length,
    groups: grouped.slice(0, limits.groups).map((s) => ({
      key: s.key!,
      rule: s.rule!.name,
      alerts: s.alerts,
      first_at: new Date(s.createdAt).toISOString(),
      last_at: new Date(s.lastAt).toISOString(),
    })),
    groups_truncated: grouped.length > limits.groups,
    split_lost: splitLost,
    split_lost_truncated: splitLostCount > splitLost.length,
  };
}
