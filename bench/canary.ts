/**
 * The watchdog canary's own cost (docs/reliability.md, "What it costs"): `npm run bench --
 * --canary-only [--canary-runs N]` (default 12). On the embedded stack, idle first (the baseline:
 * what the stack spends doing nothing), then with the watchdog on at the floor interval (10 s)
 * pinging a local heartbeat server: CPU ms per canary run by component (this process's threads,
 * the Temporal server, Postgres) with the idle baseline taken out, rows written per run (the
 * `n_tup_ins` of pg_stat_user_tables, baseline taken out, by table), rows left at rest, and how
 * long a run's alert took to become its page. One run a minute at the default interval, so per
 * run is per minute.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { knexOf } from '../src/db/knex';
import { createLogger } from '../src/logger';
import { Watchdog, type CanaryOutcome } from '../src/services/watchdog';
import { resolveSecret } from '../src/stack/secret';
import { perUnit, totalMs, type ComponentCpu } from './harness/component-cpu';
import { round } from './harness/numbers';
import type { Findings } from './harness/report';
import type { BenchStack, Say } from './harness/stack';

const INTERVAL_S = 10;
const BASELINE_S = 40;
/** Runs before the measured ones: the first sets the canary's workspace up, the next warm caches. */
const WARM_UP_RUNS = 2;
/** How long after a run's verdict a mark is taken: its tidying is done and Postgres has flushed its counters. */
const SETTLE_MS = 5_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `--canary-runs N`, 12 when absent. */
function runsFlag(): number {
  const i = process.argv.indexOf('--canary-runs');
  if (i < 0) return 12;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 360) throw new Error('--canary-runs takes a number of runs, 1 to 360');
  return n;
}

/** Rows inserted, updated and deleted per table so far (Postgres' cumulative statistics). */
async function tableCounters(stack: BenchStack): Promise<Map<string, { ins: number; upd: number; del: number }>> {
  const k = knexOf(stack.orm);
  // A fresh snapshot: within a transaction Postgres would answer the one it took first.
  await k.raw('select pg_stat_clear_snapshot()');
  const { rows } = (await k.raw('select relname, n_tup_ins, n_tup_upd, n_tup_del from pg_stat_user_tables')) as {
    rows: Array<{ relname: string; n_tup_ins: string; n_tup_upd: string; n_tup_del: string }>;
  };
  return new Map(rows.map((r) => [r.relname, { ins: Number(r.n_tup_ins), upd: Number(r.n_tup_upd), del: Number(r.n_tup_del) }]));
}

type Counters = Awaited<ReturnType<typeof tableCounters>>;

/** Per table, what changed between two readings, divided by `per` (the stretch's seconds for a rate; 1 for totals). */
function rowChanges(a: Counters, b: Counters, per: number): Map<string, { ins: number; upd: number; del: number }> {
  const out = new Map<string, { ins: number; upd: number; del: number }>();
  for (const [table, to] of b) {
    const from = a.get(table) ?? { ins: 0, upd: 0, del: 0 };
    out.set(table, { ins: (to.ins - from.ins) / per, upd: (to.upd - from.upd) / per, del: (to.del - from.del) / per });
  }
  return out;
}

/** A stretch's CPU with the idle baseline's rate taken out, per component. */
function lessBaseline(stretch: ComponentCpu, baseline: ComponentCpu): ComponentCpu {
  return {
    seconds: stretch.seconds,
    ms: stretch.ms.map(([name, ms]) => [name, ms - ((baseline.ms.find(([n]) => n === name)?.[1] ?? 0) / baseline.seconds) * stretch.seconds]),
  };
}

/** The outside heartbeat monitor: a local server counting GETs. */
async function heartbeatServer(): Promise<{ url: string; pings: () => number; close: () => Promise<void> }> {
  let pings = 0;
  const server = http.createServer((_req, res) => {
    pings += 1;
    res.end('OK');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping/bench`,
    pings: () => pings,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function benchCanary(stack: BenchStack, say: Say): Promise<Findings> {
  const measuredRuns = runsFlag();
  const monitor = await heartbeatServer();
  say(`Canary: idle baseline over ${BASELINE_S} s`);
  await sleep(3_000);
  const idle0 = { cpu: stack.components.mark(), rows: await tableCounters(stack) };
  await sleep(BASELINE_S * 1000);
  const idle1 = { cpu: stack.components.mark(), rows: await tableCounters(stack) };
  const baseline = stack.components.diff(idle0.cpu, idle1.cpu);
  const baselineRows = rowChanges(idle0.rows, idle1.rows, baseline.seconds);

  const outcomes: Array<{ outcome: CanaryOutcome; at: number }> = [];
  let wake: (() => void) | undefined;
  const watchdog = new Watchdog({
    orm: stack.orm,
    temporal: stack.temporal,
    taskQueue: stack.config.temporal.taskQueue,
    autoCloseHours: stack.config.autoCloseHours,
    secret: resolveSecret(stack.config),
    ingestBaseUrl: stack.ingestUrl,
    config: { url: monitor.url, intervalSeconds: INTERVAL_S },
    logger: createLogger('warn'),
    onRun: (outcome) => {
      outcomes.push({ outcome, at: performance.now() });
      wake?.();
    },
  });
  const afterRun = async (n: number) => {
    while (outcomes.length < n) await new Promise<void>((resolve) => (wake = resolve));
    await sleep(SETTLE_MS);
  };
  say(
    `Canary: the watchdog every ${INTERVAL_S} s, ${WARM_UP_RUNS} warm-up runs then ${measuredRuns} measured (about ${Math.ceil(((WARM_UP_RUNS + measuredRuns) * INTERVAL_S) / 60)} min)`,
  );
  watchdog.start();
  try {
    await afterRun(WARM_UP_RUNS);
    const on0 = { cpu: stack.components.mark(), rows: await tableCounters(stack), pings: monitor.pings() };
    await afterRun(WARM_UP_RUNS + measuredRuns);
    const on1 = { cpu: stack.components.mark(), rows: await tableCounters(stack), pings: monitor.pings() };
    const stretch = stack.components.diff(on0.cpu, on1.cpu);
    const canaryCpu = lessBaseline(stretch, baseline);
    const rows = rowChanges(on0.rows, on1.rows, 1);
    const perTable = [...rows]
      .map(([table, r]) => {
        const idle = baselineRows.get(table) ?? { ins: 0, upd: 0, del: 0 };
        const less = (x: number, rate: number) => (x - rate * stretch.seconds) / measuredRuns;
        return { table, ins: less(r.ins, idle.ins), upd: less(r.upd, idle.upd), del: less(r.del, idle.del) };
      })
      .filter((r) => Math.abs(r.ins) >= 0.05 || Math.abs(r.upd) >= 0.05 || Math.abs(r.del) >= 0.05)
      .sort((a, b) => b.ins - a.ins);
    const inserted = perTable.reduce((sum, r) => sum + r.ins, 0);
    const measured = outcomes.slice(WARM_UP_RUNS, WARM_UP_RUNS + measuredRuns).map((o) => o.outcome);
    const passed = measured.filter((o): o is Extract<CanaryOutcome, { result: 'passed' }> => o.result === 'passed');
    const pathMs = passed.map((o) => o.ms).sort((a, b) => a - b);
    const k = knexOf(stack.orm);
    const org = (await k('watchdog_canary').where({ id: 1 }).first('organization_id')).organization_id as string;
    const atRest = Number((await k('incidents').where({ organization_id: org }).count({ n: '*' }))[0].n);
    const perRunMs = round(totalMs(canaryCpu) / measuredRuns, 1);
    say(`Canary: ${passed.length}/${measured.length} runs passed, ${perRunMs} CPU ms and ${round(inserted, 1)} rows inserted per run`);
    return {
      figures: [],
      rates: [
        {
          key: 'canary_cpu_ms_per_run',
          label: 'canary: CPU per run (= per minute at 60 s)',
          value: perRunMs,
          unit: 'CPU ms',
          detail: `${measuredRuns} runs in ${stretch.seconds} s, less the idle baseline (${round(totalMs(baseline) / baseline.seconds, 1)} ms/s over ${baseline.seconds} s): this process, Temporal, Postgres`,
        },
        {
          key: 'canary_rows_inserted_per_run',
          label: 'canary: rows inserted per run',
          value: round(inserted, 1),
          unit: 'rows',
          detail: `n_tup_ins over ${measuredRuns} runs, less the idle baseline; all purged a run later (${atRest} canary incident(s) at rest)`,
        },
        {
          key: 'canary_path_p50_ms',
          label: 'canary: alert post → page recorded, p50',
          value: pathMs.length ? pathMs[Math.floor(pathMs.length / 2)] : Number.NaN,
          unit: 'ms',
          target: { max: 30_000 },
          detail: `${passed.length}/${measured.length} runs passed; max ${pathMs.at(-1) ?? 'n/a'} ms`,
        },
        {
          key: 'canary_pings',
          label: 'canary: heartbeats sent',
          value: on1.pings - on0.pings,
          unit: 'pings',
          detail: `over the ${measuredRuns} measured runs (one per passing run)`,
        },
      ],
      perUnit: [
        {
          key: 'canary',
          label: 'canary run',
          unit: 'canary run (alert → workflow → page → tidy), idle baseline taken out',
          units: measuredRuns,
          ms: perUnit(canaryCpu, measuredRuns),
        },
      ],
      phases: {
        canary: {
          interval_s: INTERVAL_S,
          runs: measuredRuns,
          passed: passed.length,
          path_ms: pathMs,
          rows_per_run: Object.fromEntries(perTable.map((r) => [r.table, { ins: round(r.ins, 2), upd: round(r.upd, 2), del: round(r.del, 2) }])),
          incidents_at_rest: atRest,
        },
      },
      notes: [
        `Canary rows per run by table (inserted/updated/deleted): ${perTable.map((r) => `${r.table} ${round(r.ins, 1)}/${round(r.upd, 1)}/${round(r.del, 1)}`).join(', ')}.`,
        "The bench's stack runs without WATCHDOG_URL (its baseline must be idle), so its ingest listener counts the canary's request in request_metrics and the source's statistics (alert_sources); `klaxon api` with WATCHDOG_URL leaves both out.",
      ],
    };
  } finally {
    await watchdog.stop();
    await monitor.close();
  }
}
