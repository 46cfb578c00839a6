/**
 * `npm run bench`: paging, lifecycle-update, GET /incidents and ingestion figures on the embedded
 * stack, beside their targets. A benchmark, not a test: it prints and writes a report.
 * `npm run bench -- --ingest-only` runs only the ingestion phases, `--paging-only` only paging.
 */
import os from 'node:os';
import type { IncidentStatus } from '../src/domain/incident-lifecycle';
import { benchLifecycleApi, benchRawUpdate } from './lifecycle/updates';
import { benchIngestion } from './ingest';
import { benchListIncidents, checkListPage } from './lifecycle/list';
import type { LoadShape } from './harness/load';
import { benchPaging } from './paging';
import { TwilioFakeProcess } from './paging/twilio';
import { IncidentPool } from './harness/pool';
import { report, type Figure, type Findings } from './harness/report';
import { createIncidentsViaApi, fillIncidentProjections, seedWorkspace, type BenchWorkspace } from './harness/seed';
import { startBenchStack, type BenchStack } from './harness/stack';

const say = (line: string) => process.stdout.write(`[bench] ${line}\n`);

/**
 * Each figure at several fixed concurrencies: 1 (the bare round trip), 4 (the level the targets
 * are judged at: a busy on-call team, not a flood) and 10 (past what 2 cores sustain, so latency
 * there is mostly queueing; its req/s column is the throughput ceiling).
 */
const CONCURRENCIES = [1, 4, 10] as const;
const JUDGED_AT = 4;
/** Incidents with a running workflow, cycled through by the lifecycle figures. */
const LIVE_INCIDENTS = 200;
const LISTED_INCIDENTS = 10_000;

const shape = (concurrency: number, durationS: number, warmup: number): LoadShape => ({ concurrency, durationS, warmup });

/** GET /incidents and lifecycle updates; returns their figures and how many projection rows were inserted. */
async function measureApi(stack: BenchStack, ws: BenchWorkspace): Promise<{ figures: Figure[]; inserted: number }> {
  say(`Opening ${LIVE_INCIDENTS} incidents through POST /incidents (one workflow each)`);
  const live = await createIncidentsViaApi(stack.appUrl, ws, LIVE_INCIDENTS);
  const pool = new IncidentPool(async (id) => {
    const row = await stack.orm.em.fork().getKnex()('incidents').select('status').where({ id }).first();
    return row?.status as IncidentStatus | undefined;
  });
  for (const incident of live) pool.give(incident.id, incident.status);

  const inserted = await fillIncidentProjections(stack.orm, ws, LISTED_INCIDENTS);
  say(`Inserted ${inserted} projection rows: the workspace holds ${LISTED_INCIDENTS} incidents`);
  await checkListPage(stack.appUrl, ws, '', 25);
  await checkListPage(stack.appUrl, ws, '?status=TRIGGERED&limit=100', 100);

  const figures: Figure[] = [];
  const judged = (c: number) => c === JUDGED_AT;
  for (const c of CONCURRENCIES) {
    say(`GET /incidents at ${c} connection(s)`);
    const list = await benchListIncidents(stack.appUrl, ws, '', shape(c, 6, 200));
    figures.push({ key: `list_incidents_10k_c${c}_ms`, label: `GET /incidents (10k), c=${c}`, run: list, ...(judged(c) ? { target: { p99: 20 } } : {}) });
  }
  say('GET /incidents?status=TRIGGERED&limit=100 at 4 connections');
  const filtered = await benchListIncidents(stack.appUrl, ws, '?status=TRIGGERED&limit=100', shape(4, 5, 100));
  figures.push({ key: 'list_incidents_10k_triggered_limit100_c4_ms', label: 'GET /incidents?status=TRIGGERED&limit=100, c=4', run: filtered });
  for (const c of CONCURRENCIES) {
    say(`Lifecycle updates through the API at ${c} connection(s)`);
    const lifecycle = await benchLifecycleApi(stack.appUrl, ws, pool, shape(c, 8, 20 * c));
    figures.push({ key: `lifecycle_update_c${c}_ms`, label: `lifecycle update (API), c=${c}`, run: lifecycle, ...(judged(c) ? { target: { p50: 50, p99: 150 } } : {}) });
  }
  for (const c of [1, 10]) {
    say(`Bare Temporal updates on the same workflows at ${c} concurrent call(s)`);
    const raw = await benchRawUpdate(stack.temporal, pool, shape(c, 6, 10 * c));
    figures.push({ key: `temporal_update_raw_c${c}_ms`, label: `bare Temporal update, c=${c}`, run: raw, ...(c === 1 ? { reference: { p50: 11, p99: 37 } } : {}) });
  }
  return { figures, inserted };
}

type Only = 'ingest' | 'paging' | undefined;

/**
 * Paging runs first: its memory figure needs a worker whose workflow cache is not already full
 * of the thousands of incidents the ingestion phases leave open.
 */
async function measure(stack: BenchStack, only: Only, fake: TwilioFakeProcess | undefined): Promise<Findings> {
  if (fake) say('Paging');
  const paging = fake ? await benchPaging(stack, fake, say) : undefined;
  const ws = only === 'paging' ? undefined : await seedWorkspace(stack.orm);
  const api = ws && only !== 'ingest' ? await measureApi(stack, ws) : undefined;
  if (ws) say('Ingestion');
  const ingestion = ws ? await benchIngestion(stack, ws, say) : undefined;
  const parts = [paging, ingestion].filter((f): f is Findings => f !== undefined);
  return {
    figures: [...(paging?.figures ?? []), ...(api?.figures ?? []), ...(ingestion?.figures ?? [])],
    rates: parts.flatMap((f) => f.rates),
    cpu: parts.flatMap((f) => f.cpu ?? []),
    phases: Object.assign({}, ...parts.map((f) => f.phases ?? {})) as Record<string, unknown>,
    notes: [...notesOf(stack, ws, api?.inserted), ...parts.flatMap((f) => f.notes), logNote(stack)],
  };
}

/** How the figures were taken; the API notes only when those figures ran, the leftovers of the phases that did. */
function notesOf(stack: BenchStack, ws: BenchWorkspace | undefined, inserted: number | undefined): string[] {
  const { embedded } = stack.infra;
  const ran = inserted !== undefined;
  const leftovers = ws
    ? [
        embedded.postgres ? '' : `the bench workspace ${ws.organizationId} (${ran ? `${LISTED_INCIDENTS} incidents and ` : ''}the ingestion phases' alerts and incidents) stays in the DATABASE_URL database`,
        embedded.temporal ? '' : `its incident workflows (${ran ? `${LIVE_INCIDENTS} lifecycle ones, ` : ''}the ingestion phases' and the bare run's new-workflow ones) stay open at TEMPORAL_ADDRESS on task queue ${stack.config.temporal.taskQueue}`,
      ].filter(Boolean)
    : [];
  return [
    ...(leftovers.length ? [`Not cleaned up: ${leftovers.join('; ')}.`] : []),
    `Stack: ${embedded.postgres ? 'embedded Postgres' : 'Postgres at DATABASE_URL'}, ${
      embedded.temporal ? 'embedded Temporal dev server (SQLite, WAL pragmas)' : 'Temporal at TEMPORAL_ADDRESS'
    }; API, worker and outbox relay in this process, as \`klaxon start\` runs them.`,
    'Load: every HTTP request comes from a separate load generator process (bench/harness/load-child.ts: autocannon closed loop, or an open-loop pacer), one per run, so it does not share the event loop or the CPU time of the process it measures; it builds each request body (and picks each lifecycle incident) itself and sends back every 2xx latency, 0.1 ms resolution, and the count of every status; warm-up requests not counted. The bare Temporal calls run in this process, as the relay\'s do.',
    ...(ran
      ? [
          `API figures at ${CONCURRENCIES.join(', ')} connections (concurrent calls for the bare update); targets are judged at ${JUDGED_AT}.`,
          `Lifecycle: every request is a real state change (acknowledge → investigate → resolve → reopen → …) over ${LIVE_INCIDENTS} incidents with running workflows; no incident has two requests in flight. wrong_status counts 2xx answers whose status was not the one the operation produces.`,
          'Bare Temporal update: client.workflow.getHandle().executeUpdate() on the same workflows and cycle, no HTTP. It includes the handler\'s projection activity (one Postgres transaction) and the search-attribute upsert; the API adds HTTP, the token check and a projection read (a plain Update; Update-with-Start only when no run is open). The 11 ms / 37 ms reference (design.md §2) is an Update that answers without an activity.',
          `GET /incidents: ${LISTED_INCIDENTS} incidents in the workspace, of which ${inserted} inserted as projection rows by bulk SQL (no workflows) and then ANALYZEd; the list endpoint reads only Postgres. Default page (limit 25), newest first.`,
        ]
      : []),
    'CPU table: CPU-seconds per second over each stretch, from process.cpuUsage (this process), the load generator\'s own count, /proc for this process\'s child processes (embedded Postgres and Temporal; with DATABASE_URL/TEMPORAL_ADDRESS those land in the rest) and os.cpus() for the whole machine; the rest is other work on the machine.',
  ];
}

function logNote(stack: BenchStack): string {
  return `Warn/error log lines during the run: ${stack.logs.count}${stack.logs.first.length ? ` (first: ${stack.logs.first.join(' | ')})` : ''}.`;
}

async function main(): Promise<void> {
  const started = Date.now();
  const [loadAtStart] = os.loadavg();
  const only: Only = process.argv.includes('--ingest-only') ? 'ingest' : process.argv.includes('--paging-only') ? 'paging' : undefined;
  // Paging pages through the real Twilio SDK to a wire fake in a process of its own.
  const fake = only === 'ingest' ? undefined : await TwilioFakeProcess.start();
  say('Starting the stack in a temporary data folder');
  const stack = await startBenchStack(say, fake?.env).catch(async (err) => {
    await fake?.close();
    throw err;
  });
  // Ctrl-C must not leave Postgres and the Temporal server running in a temp folder.
  const onSignal = () => void Promise.all([stack.stop(), fake?.close()]).finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const findings = await measure(stack, only, fake);
    const [loadAtEnd] = os.loadavg();
    findings.notes.push(`Bench wall time ${Math.round((Date.now() - started) / 1000)} s (stack start included).`);
    if (loadAtStart > os.cpus().length * 0.75) {
      findings.notes.push(`The machine was already busy when the bench started (1-minute load ${loadAtStart.toFixed(1)} on ${os.cpus().length} CPUs): figures are pessimistic.`);
    }
    const machine = { load_avg_1m_at_start: Math.round(loadAtStart * 100) / 100, load_avg_1m_at_end: Math.round(loadAtEnd * 100) / 100 };
    process.stdout.write(`\n${report(findings, machine)}\n`);
  } finally {
    say('Stopping the stack');
    await stack.stop();
    await fake?.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`[bench] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
