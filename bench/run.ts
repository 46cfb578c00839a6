/**
 * `npm run bench`: paging, lifecycle-update, GET /incidents and ingestion figures on the embedded
 * stack, beside their targets. A benchmark, not a test: it prints and writes a report.
 * `npm run bench -- --ingest-only` runs only the ingestion phases, `--paging-only` only paging
 * (with the Slack message phase), `--slack-only` only the Slack message phase (paging/slack.ts),
 * `--first-page-only` only the 202 → first SMS phases (with CPU ms per incident: this process,
 * Postgres, Temporal, SQL statements and history counts per incident) and escalation lateness with
 * 1,000 open (paging/first-page.ts, escalation.ts); `BENCH_CPU_PROFILE=<file>` writes a CPU profile
 * of this process's main thread over the 100/s first SMS phase (harness/profile.ts),
 * `--reports-only` only reports (reports.ts: JSON, CSV and PDF over 10,000 incidents),
 * `--dashboard-only` only the dashboard (dashboard.ts: first render of the incident list with
 * 10,000 incidents in Chromium, and the bundle size), `--logins-only` only concurrent logins
 * (logins/: 500 wrong logins for one account at once, how many passwords were checked),
 * `--hostile-only` only the hostile payloads (hostile/: parse time of the adversarial corpus, no
 * stack needed), `--import-only` only the importer (import/: a generated PagerDuty account of
 * 200 users, 50 schedules, 50 policies and 100 services through its wire fake), `--what-if-only`
 * only the what-if replay (what-if.ts: a draft policy over 10,000 incidents of one service, then
 * what-if-hostile.ts: a draft of 20 steps × 50 people repeated 9 times over incidents that all
 * stayed TRIGGERED, with its answer's size and the worst event-loop delay; `--hostile-incidents N`,
 * default 1,000); `--what-if-hostile-only` only the hostile one. `--storm-only` runs the noise
 * control storms (noise.ts: 500 distinct alerts in 10 s under a grouping rule, then under the
 * storm guard), `--grouping-replay-only` the grouping replay of 100,000 alerts over 90 days.
 * `--canary-only [--canary-runs N]` measures the watchdog canary's own cost (canary.ts: CPU ms and
 * rows written per run, idle baseline taken out; docs/reliability.md); never part of the full run.
 * `--failover-only [--failover-pages N]` measures carrier failover (failover/: Twilio refusing every
 * SMS, then reporting each undelivered, N incidents one at a time, default 100: from Twilio's
 * setback to Vonage taking the SMS) on a stack of its own with both carriers; the full run ends
 * with it, after the main stack has stopped.
 * `--first-sms-only` runs only the 202 → first SMS phases (10/s, 100/s, and 20/s during a 1,000/s
 * dedup storm: paging/dedup-storm.ts) with their CPU-per-incident table (a few minutes).
 * `--cluster [--workers N]` runs the paging and ingestion phases against the cluster shape
 * (harness/cluster-stack.ts): a Temporal server persisting to PostgreSQL (src/cluster), `klaxon
 * api` with OUTBOX_RELAY=off, one `klaxon relay` and N `klaxon worker` processes (default 1) from
 * dist/ (built first when stale); paging there skips the escalation and memory phases (they read
 * the worker's heap in-process) and adds the worker-scaling phase (paging/worker-scaling.ts: the
 * rate sustained with one worker, then with N). With --cluster, `--paging-only`, `--first-sms-only`,
 * `--ingest-only` and `--scaling-only` (the worker-scaling phase alone) narrow it.
 * The paging phases' CPU per new incident is split by component from /proc (harness/proc.ts,
 * harness/component-cpu.ts): per thread kind in a Node process, per process tree for Postgres and Temporal.
 * One folder per scenario (paging/, lifecycle/, ingest/, logins/, hostile/; each index.ts says what it measures),
 * all on harness/ (stack, load generator, CPU accounting, report).
 */
import os from 'node:os';
import { round } from './harness/numbers';
import { report, type Findings } from './harness/report';
import { startBenchStack, type BenchStack } from './harness/stack';
import { startClusterStack, type ClusterRoles } from './harness/cluster-stack';
import { seedWorkspace, type BenchWorkspace } from './harness/workspace';
import { benchIngestion } from './ingest';
import { benchLifecycle, LISTED_INCIDENTS, LIVE_INCIDENTS } from './lifecycle';
import { benchPaging } from './paging';
import { TwilioFakeProcess } from './paging/twilio';
import { WebPushService } from './paging/web-push';
import { SlackApiFake } from '../src/integrations/slack/testing/wire-fake';
import { benchDashboard } from './dashboard';
import { benchHostile } from './hostile';
import { benchReports } from './reports';
import { benchLogins } from './logins';
import { benchImport } from './import';
import { benchWhatIf } from './what-if';
import { benchWhatIfHostile } from './what-if-hostile';
import { benchGroupingReplay, benchStorm } from './noise';
import { benchCanary } from './canary';
import { benchFailover } from './failover';

const say = (line: string) => process.stdout.write(`[bench] ${line}\n`);

type Only =
  | 'ingest'
  | 'paging'
  | 'first-page'
  | 'first-sms'
  | 'scaling'
  | 'slack'
  | 'reports'
  | 'dashboard'
  | 'logins'
  | 'hostile'
  | 'import'
  | 'what-if'
  | 'what-if-hostile'
  | 'storm'
  | 'grouping-replay'
  | 'canary'
  | 'failover'
  | undefined;

/** The fakes the paging phases send to: Twilio in a process of its own, Slack's Web API and a push service in this one. */
interface PagingFakes {
  twilio: TwilioFakeProcess;
  slack: SlackApiFake;
  /** The push service fake: not started for `--slack-only`. */
  push?: WebPushService;
}

/**
 * Paging runs first: its memory figure needs a worker whose workflow cache is not already full
 * of the thousands of incidents the ingestion phases leave open.
 */
async function measure(stack: BenchStack, only: Only, fakes: PagingFakes | undefined, cluster?: ClusterRoles): Promise<Findings> {
  if (fakes) say(only === 'slack' ? 'Slack messages' : 'Paging');
  const paging = fakes
    ? await benchPaging(stack, fakes.twilio, say, fakes.slack, {
        slackOnly: only === 'slack',
        firstPageOnly: only === 'first-page',
        firstSmsOnly: only === 'first-sms',
        scalingOnly: only === 'scaling',
        push: fakes.push,
        cluster,
      })
    : undefined;
  const ws = only === undefined || only === 'ingest' ? await seedWorkspace(stack.orm) : undefined;
  // The cluster shape runs the paging and ingestion phases only.
  const api = ws && only !== 'ingest' && !cluster ? await benchLifecycle(stack, ws, say) : undefined;
  if (cluster && only === undefined) only = 'ingest';
  if (ws) say('Ingestion');
  const ingestion = ws ? await benchIngestion(stack, ws, say) : undefined;
  if (only === undefined || only === 'reports') say('Reports');
  const reports = only === undefined || only === 'reports' ? await benchReports(stack, say) : undefined;
  if (only === undefined || only === 'dashboard') say('Dashboard');
  const dashboard = only === undefined || only === 'dashboard' ? await benchDashboard(stack, say) : undefined;
  if (only === undefined || only === 'logins') say('Logins');
  const logins = only === undefined || only === 'logins' ? await benchLogins(stack, say) : undefined;
  if (only === undefined || only === 'import') say('Import');
  const imported = only === undefined || only === 'import' ? await benchImport(stack, say) : undefined;
  if (only === undefined || only === 'what-if') say('What-if');
  const whatIf = only === undefined || only === 'what-if' ? await benchWhatIf(stack, say) : undefined;
  if (only === undefined || only === 'what-if' || only === 'what-if-hostile') say('Hostile what-if');
  const whatIfHostile = only === undefined || only === 'what-if' || only === 'what-if-hostile' ? await benchWhatIfHostile(stack, say) : undefined;
  if (only === undefined || only === 'storm') say('Noise control: storms');
  const storms = (only === undefined && !cluster) || only === 'storm' ? await benchStorm(stack, say) : undefined;
  if (only === undefined || only === 'grouping-replay') say('Noise control: grouping replay');
  const groupingReplay = (only === undefined && !cluster) || only === 'grouping-replay' ? await benchGroupingReplay(stack, say) : undefined;
  // The canary runs on an idle stack only (its cost is what it adds to idle): never in the full run.
  if (only === 'canary') say('Watchdog canary');
  const canary = only === 'canary' ? await benchCanary(stack, say) : undefined;
  if (only === undefined) say('Hostile payloads');
  const hostile = only === undefined ? await benchHostile(say) : undefined;
  const parts = [paging, ingestion, reports, dashboard, logins, imported, whatIf, whatIfHostile, storms, groupingReplay, canary, hostile].filter(
    (f): f is Findings => f !== undefined,
  );
  return {
    figures: [...(paging?.figures ?? []), ...(api?.figures ?? []), ...(ingestion?.figures ?? []), ...(reports?.figures ?? [])],
    rates: parts.flatMap((f) => f.rates),
    cpu: parts.flatMap((f) => f.cpu ?? []),
    phases: Object.assign({}, ...parts.map((f) => f.phases ?? {})) as Record<string, unknown>,
    perUnit: parts.flatMap((f) => f.perUnit ?? []),
    componentCores: parts.flatMap((f) => f.componentCores ?? []),
    notes: [...notesOf(stack, ws, api?.notes), ...parts.flatMap((f) => f.notes), logNote(stack)],
  };
}

/** How the figures were taken; the API notes only when those figures ran, the leftovers of the phases that did. */
function notesOf(stack: BenchStack, ws: BenchWorkspace | undefined, apiNotes: string[] | undefined): string[] {
  const { embedded } = stack.infra;
  const ran = apiNotes !== undefined;
  const leftovers = ws
    ? [
        embedded.postgres
          ? ''
          : `the bench workspace ${ws.organizationId} (${ran ? `${LISTED_INCIDENTS} incidents and ` : ''}the ingestion phases' alerts and incidents) stays in the DATABASE_URL database`,
        embedded.temporal
          ? ''
          : `its incident workflows (${ran ? `${LIVE_INCIDENTS} lifecycle ones, ` : ''}the ingestion phases' and the bare run's new-workflow ones) stay open at TEMPORAL_ADDRESS on task queue ${stack.config.temporal.taskQueue}`,
      ].filter(Boolean)
    : [];
  return [
    ...(leftovers.length ? [`Not cleaned up: ${leftovers.join('; ')}.`] : []),
    stack.shape === 'cluster'
      ? `Stack: the cluster shape: ${embedded.postgres ? 'embedded Postgres' : 'Postgres at DATABASE_URL'}, a Temporal server persisting to it (src/cluster), and \`klaxon api\` (OUTBOX_RELAY=off), \`klaxon relay\` and ${clusterWorkers} \`klaxon worker\` as separate processes from dist/, configured through their environment. In the CPU table the "Postgres+Temporal" column is every child process of the bench, the roles included; the CPU-by-component tables split them. ` +
        "The relay is a process of its own, woken by the API's NOTIFY, and starts new incidents' workflows without eager start: their first workflow task goes through the server's task queue to a worker's poll (where the 202 → first SMS note says eager, read this)."
      : `Stack: ${embedded.postgres ? 'embedded Postgres' : 'Postgres at DATABASE_URL'}, ${
          embedded.temporal ? 'embedded Temporal dev server (SQLite, WAL pragmas)' : 'Temporal at TEMPORAL_ADDRESS'
        }; API, worker and outbox relay in this process, as \`klaxon start\` runs them.`,
    "Load: every HTTP request comes from a separate load generator process (bench/harness/load-child.ts: autocannon closed loop, or an open-loop pacer), one per run, so it does not share the event loop or the CPU time of the process it measures; it builds each request body (and picks each lifecycle incident) itself and sends back every 2xx latency, 0.1 ms resolution, and the count of every status; warm-up requests not counted. The bare Temporal calls run in this process, as the relay's do.",
    ...(apiNotes ?? []),
    "CPU table: CPU-seconds per second over each stretch, from process.cpuUsage (this process), the load generator's own count, /proc for this process's child processes (embedded Postgres and Temporal; with DATABASE_URL/TEMPORAL_ADDRESS those land in the rest) and os.cpus() for the whole machine; the rest is other work on the machine.",
  ];
}

function logNote(stack: BenchStack): string {
  return `Warn/error log lines during the run: ${stack.logs.count}${stack.logs.first.length ? ` (first: ${stack.logs.first.join(' | ')})` : ''}.`;
}

/** The findings' report, with the run's wall time and the machine's load beside them. */
function printReport(findings: Findings, started: number, loadAtStart: number, withStack = true): void {
  const [loadAtEnd] = os.loadavg();
  findings.notes.push(`Bench wall time ${Math.round((Date.now() - started) / 1000)} s${withStack ? ' (stack start included)' : ''}.`);
  if (loadAtStart > os.cpus().length * 0.75) {
    findings.notes.push(
      `The machine was already busy when the bench started (1-minute load ${loadAtStart.toFixed(1)} on ${os.cpus().length} CPUs): figures are pessimistic.`,
    );
  }
  const machine = { load_avg_1m_at_start: round(loadAtStart, 2), load_avg_1m_at_end: round(loadAtEnd, 2) };
  process.stdout.write(`\n${report(findings, machine)}\n`);
}

/** `--workers N` (cluster only), 1 when absent. */
function workersFlag(): number {
  const i = process.argv.indexOf('--workers');
  if (i < 0) return 1;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 8) throw new Error('--workers takes a number of worker processes, 1 to 8');
  return n;
}

let clusterWorkers = 1;

async function main(): Promise<void> {
  const started = Date.now();
  const [loadAtStart] = os.loadavg();
  const cluster = process.argv.includes('--cluster');
  clusterWorkers = workersFlag();
  if (process.argv.includes('--workers') && !cluster) throw new Error('--workers is for --cluster');
  const flag = (
    [
      'ingest',
      'paging',
      'first-page',
      'first-sms',
      'scaling',
      'slack',
      'reports',
      'dashboard',
      'logins',
      'hostile',
      'import',
      'what-if',
      'what-if-hostile',
      'storm',
      'grouping-replay',
      'canary',
      'failover',
    ] as const
  ).find((name) => process.argv.includes(`--${name}-only`));
  const only: Only = flag;
  if (cluster && only !== undefined && !['paging', 'first-sms', 'scaling', 'ingest'].includes(only))
    throw new Error(`--cluster runs the paging and ingestion phases: --${only}-only is for the single-process shape`);
  if (only === 'scaling' && !cluster) throw new Error('--scaling-only is for --cluster');
  // Parsing needs no stack: the hostile payloads run alone without starting one.
  if (only === 'hostile') return printReport(await benchHostile(say), started, loadAtStart, false);
  // Failover starts a stack of its own, with both carriers.
  if (only === 'failover') return printReport(await benchFailover(say), started, loadAtStart);
  // Paging pages through the real Twilio SDK to a wire fake in a process of its own; browser pushes
  // go to a push service fake and incidents are posted in Slack through the real Web API client to
  // its wire fake, both in this process.
  const fakes: PagingFakes | undefined =
    only === undefined || only === 'paging' || only === 'first-page' || only === 'first-sms' || only === 'scaling' || only === 'slack'
      ? {
          twilio: await TwilioFakeProcess.start(),
          slack: await new SlackApiFake().start(),
          push: only === 'slack' || only === 'first-page' || only === 'first-sms' || only === 'scaling' ? undefined : await WebPushService.start(),
        }
      : undefined;
  const closeFakes = async () => {
    await fakes?.twilio.close();
    await fakes?.slack.stop();
    await fakes?.push?.close();
  };
  say(`Starting the ${cluster ? `cluster shape (${clusterWorkers} worker${clusterWorkers === 1 ? '' : 's'})` : 'stack'} in a temporary data folder`);
  const fakeEnv = fakes ? { ...fakes.twilio.env, ...fakes.slack.env(), ...fakes.push?.env } : {};
  const stack: BenchStack & { cluster?: ClusterRoles } = await (
    cluster ? startClusterStack(say, fakeEnv, clusterWorkers) : startBenchStack(say, fakeEnv)
  ).catch(async (err) => {
    await closeFakes();
    throw err;
  });
  // Ctrl-C must not leave Postgres and the Temporal server running in a temp folder.
  const onSignal = () => void Promise.all([stack.stop(), closeFakes()]).finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let findings: Findings;
  try {
    findings = await measure(stack, only, fakes, stack.cluster);
  } finally {
    say('Stopping the stack');
    await stack.stop();
    await closeFakes();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  // Last, on a stack of its own: with both carriers configured, the other phases' pages would fail over.
  if (only === undefined && !cluster) {
    say('Carrier failover');
    findings = merged(findings, await benchFailover(say));
  }
  printReport(findings, started, loadAtStart);
}

/** Two runs' findings as one report. */
function merged(a: Findings, b: Findings): Findings {
  return {
    figures: [...a.figures, ...b.figures],
    rates: [...a.rates, ...b.rates],
    cpu: [...(a.cpu ?? []), ...(b.cpu ?? [])],
    phases: { ...a.phases, ...b.phases },
    perUnit: [...(a.perUnit ?? []), ...(b.perUnit ?? [])],
    componentCores: [...(a.componentCores ?? []), ...(b.componentCores ?? [])],
    notes: [...a.notes, ...b.notes],
  };
}

main().catch((err: unknown) => {
  process.stderr.write(`[bench] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
