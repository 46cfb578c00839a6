/**
 * Noise control (docs/grouping.md), three phases:
 * (1) a storm of 500 distinct alerts in 10 s on a paging service under a grouping rule: incidents
 *     opened, pages sent, CPU ms per alert (this process: API, relay, worker), intake p99;
 * (2) the same storm without rules, the source's storm guard at 50/60/120 (the bench's stacks run
 *     with STORM_GUARD=off, so it is set on the source): the guard acts;
 * (3) a replay of 100,000 alerts over 90 days (seeded into Postgres) under a rule, timed.
 * `npm run bench -- --storm-only` runs (1) and (2); `--grouping-replay-only` runs (3).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { knexOf } from '../src/db/knex';
import { putGroupingRules } from '../src/services/grouping/rules';
import { setSourceStorm } from '../src/services/grouping/storm-settings';
import { simulateGrouping } from '../src/services/grouping/simulate';
import type { GroupingRule } from '../src/domain/grouping/rules';
import { round } from './harness/numbers';
import type { Findings, Rate } from './harness/report';
import type { BenchStack, Say } from './harness/stack';
import { seedWorkspace, type BenchWorkspace } from './harness/workspace';
import { pagingService, smsResponder } from './paging/seed';

const STORM_ALERTS = 500;
const STORM_S = 10;
/** How long pages get to go out after the storm before they are counted. */
const SETTLE_S = 15;
const REPLAY_ALERTS = 100_000;
const REPLAY_DAYS = 90;

const BY_HOST: GroupingRule = {
  name: 'disk by host',
  match: [{ field: 'title', op: 'contains', value: 'disk' }],
  group_by: ['details.cluster'],
  window_seconds: 600,
  page_after: null,
};

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Posts STORM_ALERTS distinct alerts evenly over STORM_S seconds; returns each 202's latency (ms) and the CPU this process spent. */
async function storm(url: string, prefix: string): Promise<{ latencies: number[]; cpuMs: number; wallS: number }> {
  const latencies: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const inFlight: Array<Promise<void>> = [];
  for (let i = 0; i < STORM_ALERTS; i++) {
    const due = t0 + (i * STORM_S * 1000) / STORM_ALERTS;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(
      (async () => {
        const started = performance.now();
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ title: `${prefix} disk full on node ${i}`, severity: 'critical', metadata: { cluster: 'eu-1', node: `n${i}` } }),
        });
        await res.arrayBuffer();
        if (res.status !== 202) throw new Error(`ingestion answered ${res.status}`);
        latencies.push(performance.now() - started);
      })(),
    );
  }
  await Promise.all(inFlight);
  const cpu = process.cpuUsage(cpu0);
  return { latencies, cpuMs: (cpu.user + cpu.system) / 1000, wallS: (performance.now() - t0) / 1000 };
}

/** Incidents the source's alerts landed on, and pages sent for them, once SETTLE_S passed. */
async function outcome(stack: BenchStack, sourceId: string) {
  await sleep(SETTLE_S * 1000);
  const db = knexOf(stack.orm);
  const incidents: string[] = (await db('alerts').where({ source_id: sourceId }).distinct('incident_id')).map((r: { incident_id: string }) => r.incident_id);
  const [{ n }] = await db('notifications').whereIn('incident_id', incidents).count({ n: '*' });
  return { incidents: incidents.length, pages: Number(n) };
}

/** Phases (1) and (2). */
export async function benchStorm(stack: BenchStack, say: Say): Promise<Findings> {
  const ws: BenchWorkspace = await seedWorkspace(stack.orm);
  const responder = await smsResponder(stack.orm, ws);
  const ruled = await pagingService(stack.orm, ws, { name: 'storm under a rule', ingestBaseUrl: stack.ingestUrl, steps: [responder], delays: [600] });
  await putGroupingRules(stack.orm, { organizationId: ws.organizationId, serviceId: ruled.serviceId, rules: [BY_HOST] });
  say(`Storm under a rule: ${STORM_ALERTS} distinct alerts in ${STORM_S} s`);
  const a = await storm(ruled.url, `r-${randomUUID().slice(0, 6)}`);
  const aOut = await outcome(stack, ruled.sourceId);

  const guarded = await pagingService(stack.orm, ws, { name: 'storm guarded', ingestBaseUrl: stack.ingestUrl, steps: [responder], delays: [600] });
  await setSourceStorm(stack.orm, guarded.sourceId, { max_new_incidents: 50, within_seconds: 60, quiet_seconds: 120 });
  say(`Storm without rules, storm guard 50/60/120: ${STORM_ALERTS} distinct alerts in ${STORM_S} s`);
  const b = await storm(guarded.url, `g-${randomUUID().slice(0, 6)}`);
  const bOut = await outcome(stack, guarded.sourceId);
  say(`  under a rule: ${aOut.incidents} incident(s), ${aOut.pages} page(s); guarded: ${bOut.incidents} incident(s), ${bOut.pages} page(s)`);

  const rate = (key: string, label: string, run: typeof a, out: typeof aOut, target: number): Rate[] => {
    const detail = `${STORM_ALERTS} distinct alerts over ${round(run.wallS, 1)} s`;
    return [
      { key: `${key}_incidents`, label: `${label}: incidents opened`, value: out.incidents, unit: '', target: { max: target }, detail },
      {
        key: `${key}_pages`,
        label: `${label}: pages sent`,
        value: out.pages,
        unit: '',
        target: { max: target },
        detail: `${detail}, counted ${SETTLE_S} s after`,
      },
      {
        key: `${key}_cpu_ms_per_alert`,
        label: `${label}: CPU ms per alert`,
        value: round(run.cpuMs / STORM_ALERTS, 2),
        unit: 'ms',
        detail: 'this process: API, relay, worker',
      },
      {
        key: `${key}_intake_p99_ms`,
        label: `${label}: intake p99`,
        value: round(p99(run.latencies), 1),
        unit: 'ms',
        detail: 'request to 202, as fetch saw it',
      },
    ];
  };
  return {
    figures: [],
    rates: [...rate('storm_rule', 'storm of 500 under a rule', a, aOut, 1), ...rate('storm_guard', 'storm of 500, storm guard', b, bOut, 51)],
    phases: {
      storm_rule: { ...aOut, cpu_ms: round(a.cpuMs, 1), wall_s: round(a.wallS, 2), p99_ms: round(p99(a.latencies), 1) },
      storm_guard: { ...bOut, cpu_ms: round(b.cpuMs, 1), wall_s: round(b.wallS, 2), p99_ms: round(p99(b.latencies), 1) },
    },
    notes: [
      `Storm phases: ${STORM_ALERTS} distinct Form A alerts (no dedup key) paced evenly over ${STORM_S} s from this process's fetch (not a separate load generator), to a service paging one SMS responder at once; incidents and pages counted ${SETTLE_S} s after the storm. CPU ms per alert is this process (API, relay, worker) over the storm; Postgres and Temporal are not in it. Under a rule (title contains "disk", grouped by details.cluster, all one cluster) the target is 1 incident and 1 page; with the storm guard at 50/60/120, 50 incidents and the storm incident (51).`,
    ],
  };
}

/** Phase (3): 100,000 alerts over 90 days on one service, in 20,000 incidents, replayed under a rule. */
export async function benchGroupingReplay(stack: BenchStack, say: Say): Promise<Findings> {
  const ws = await seedWorkspace(stack.orm);
  const responder = await smsResponder(stack.orm, ws);
  const svc = await pagingService(stack.orm, ws, { name: 'replayed', ingestBaseUrl: stack.ingestUrl, steps: [responder], delays: [600] });
  const db = knexOf(stack.orm);
  say(`Grouping replay: seeding ${REPLAY_ALERTS} alerts over ${REPLAY_DAYS} days`);
  const now = Date.now();
  const span = REPLAY_DAYS * 86_400_000 - 60_000;
  await db.raw(
    `with inc as (
       insert into incidents (id, organization_id, number, service_id, owning_team_id, title, severity, status, alert_count, last_seq, created_at, updated_at)
       select gen_random_uuid(), ?, 1000000 + g, ?, ?, 'disk full ' || g, 'HIGH', 'CLOSED', 5, 1, to_timestamp((?::float8 - ?::float8 + g * ?::float8 / 20000) / 1000), now()
       from generate_series(0, 19999) g returning id, number, created_at
     )
     insert into alerts (id, organization_id, source_id, service_id, incident_id, title, severity, status, sender, metadata, created_at, resolved_at)
     select gen_random_uuid(), ?, ?, ?, inc.id, inc.title_base || ' on node ' || k, 'HIGH', 'RESOLVED', 'form-a',
            jsonb_build_object('cluster', 'c' || (inc.number % 40), 'node', 'n' || k), inc.created_at + k * interval '10 seconds', inc.created_at + interval '6 hours'
     from (select id, number, created_at, 'disk full' as title_base from inc) inc cross join generate_series(0, 4) k`,
    [ws.organizationId, svc.serviceId, ws.teamId, now, span, span, ws.organizationId, svc.sourceId, svc.serviceId],
  );
  const runs: number[] = [];
  let answer;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    answer = await simulateGrouping(stack.orm, {
      organizationId: ws.organizationId,
      serviceId: svc.serviceId,
      // A day's window: each cluster's incidents of a day fold into one.
      rules: [{ ...BY_HOST, window_seconds: 86_400 }],
      from: new Date(now - REPLAY_DAYS * 86_400_000),
      to: new Date(now),
    });
    runs.push((performance.now() - started) / 1000);
  }
  const median = [...runs].sort((x, y) => x - y)[1];
  say(`  replay: median ${round(median, 2)} s over ${answer!.alerts_replayed} alerts: ${answer!.incidents_before} → ${answer!.incidents_after} incidents`);
  return {
    figures: [],
    rates: [
      {
        key: 'grouping_replay_100k_s',
        label: 'grouping replay, 100k alerts / 90 days',
        value: round(median, 3),
        unit: 's',
        detail: `median of 3; every run ${runs.map((s) => round(s, 2)).join(', ')} s`,
      },
    ],
    phases: {
      grouping_replay: {
        seconds: runs.map((s) => round(s, 3)),
        alerts: answer!.alerts_replayed,
        incidents_before: answer!.incidents_before,
        incidents_after: answer!.incidents_after,
        groups: answer!.groups.length,
      },
    },
    notes: [
      `Grouping replay: ${REPLAY_ALERTS} alerts in 20,000 incidents (5 each, 10 s apart, resolved after 6 h, so a cluster's next incident, about 4.3 h later, finds the last one open) over ${REPLAY_DAYS} days on one service, seeded straight into Postgres; replayed under one rule grouping by details.cluster (40 clusters) with a one-day window through the service function (src/services/grouping/simulate.ts, the route's whole work), median of 3.`,
    ],
  };
}
