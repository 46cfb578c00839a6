/**
 * `npm run test:faults` (issue 11, item 5): the whole system as production runs it (Postgres, a
 * Temporal dev server with a file database, two `klaxon api` and two `klaxon worker` processes,
 * the Twilio wire fake), a paced load of Alertmanager events with Idempotency-Keys, and faults in
 * turn during it: kill -9 a worker, kill -9 both workers mid-merge, kill -9 an API process,
 * restart Temporal, restart Postgres. Meanwhile a person merges two open incidents every few
 * seconds through the dashboard API (merges.ts), asking again until each merge answers 200.
 * Then it waits for quiet, accounts for every event from Postgres and the fake's log, and prints
 * one line; the exit code is non-zero on a lost event, a doubled alert, a firing alert without an
 * open paged incident, or a doubled page the timeline does not mark. Loopback only.
 *
 * Options: --rate N (events/s, 10), --seconds N (least load, 60; it lasts until the faults are
 * done anyway), --seed N, --keep (keep the temp folder of logs and data even when the run passes),
 * --cluster (the cluster shape of docs/cluster.md: a Temporal server persisting to the suite's
 * Postgres instead of the dev server, and the Temporal fault is a kill -9 of that server).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { account, failed, summaryLine, type Accounting } from './account';
import { faultSchedule, runFaults, type FaultRecord } from './chaos';
import { countBy } from './ledger';
import { Load, type LoadTally } from './load';
import { Merger } from './merges';
import { cleanUp, installExitHooks, interruption } from './processes';
import { SOURCES, startSystem } from './system';
import { readActivity, readPendingPages, readRows } from './rows';
import { makeKeys, seededRandom } from './traffic';
import { waitForQuiet, type QuietResult } from './quiet';

/** Progress goes to stderr; stdout carries the one line and, on failure, its details. */
const say = (line: string) => process.stderr.write(`[faults] ${new Date().toISOString().slice(11, 19)} ${line}\n`);
const out = (line: string) => process.stdout.write(`${line}\n`);

const KEYS_PER_SOURCE = 40;
/** Between two merges of the merger's steady stream (merges.ts). */
const MERGE_EVERY_MS = 4000;
/** Load carried after the last fault, so the system is seen working again under load. */
const TAIL_MS = 10_000;
/** The whole run, set-up and teardown included, stays under the issue's 10 minutes. */
const TIME_LIMIT_MS = 9.5 * 60_000;
/**
 * Kept back from the time limit for what follows the load: the quiet wait (up to 4 minutes),
 * the accounting and the teardown. On a machine so busy that the faults drag on, the load stops
 * early rather than leave no time to account for it.
 */
const AFTER_LOAD_MS = 5 * 60_000;
/** Kept back from the time limit for the accounting and the teardown. */
const AFTER_QUIET_MS = 60_000;

interface Options {
  rate: number;
  seconds: number;
  seed: number;
  keep: boolean;
  /** A Temporal server on the suite's Postgres (src/cluster) instead of the dev server. */
  cluster: boolean;
}

function parseOptions(argv: string[]): Options {
  const opts: Options = { rate: 10, seconds: 60, seed: Date.now() % 1_000_000, keep: false, cluster: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--keep') opts.keep = true;
    else if (flag === '--cluster') opts.cluster = true;
    else if (flag === '--rate' || flag === '--seconds' || flag === '--seed') {
      const value = Number(argv[++i]);
      if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag} needs a positive number`);
      opts[flag.slice(2) as 'rate' | 'seconds' | 'seed'] = value;
    } else throw new Error(`unknown option ${flag} (use --rate N, --seconds N, --seed N, --keep, --cluster)`);
  }
  return opts;
}

async function run(opts: Options, runDir: string, deadline: number): Promise<boolean> {
  const runId = randomBytes(3).toString('hex');
  const {
    postgres,
    temporal,
    fake,
    apis,
    workers,
    ingestUrls,
    tokens,
    appUrls,
    merger: mergerLogin,
  } = await startSystem(runDir, runId, say, {
    cluster: opts.cluster,
  });

  say(
    `load: ${opts.rate} events/s over ${SOURCES} sources × ${KEYS_PER_SOURCE} keys (seed ${opts.seed}) for at least ${opts.seconds} s and until ${TAIL_MS / 1000} s after the last fault`,
  );
  const load = new Load({
    apis: ingestUrls,
    tokens,
    keys: makeKeys(SOURCES, KEYS_PER_SOURCE, runId),
    runId,
    eventsPerSecond: opts.rate,
    random: seededRandom(opts.seed),
    giveUpMs: 120_000,
    maxInFlight: 64,
    say,
  });
  const merger = new Merger({
    appUrls,
    databaseUrl: postgres.url,
    login: mergerLogin,
    random: seededRandom(opts.seed + 1),
    intervalMs: MERGE_EVERY_MS,
    giveUpMs: 120_000,
    say,
  });
  const started = Date.now();
  let faultsDoneAt = Infinity;
  const midMerge = { name: 'kill -9 both workers mid-merge, start them again, ask again until 200', run: () => merger.cutShort(workers) };
  const faulting = runFaults(faultSchedule({ worker: workers[0], api: apis[0], temporal, postgres, midMerge }), started, say).finally(
    () => (faultsDoneAt = Date.now()),
  );
  const loadDone = () => (Date.now() - started >= opts.seconds * 1000 && Date.now() - faultsDoneAt >= TAIL_MS) || Date.now() >= deadline - AFTER_LOAD_MS;
  await Promise.all([load.run(loadDone), merger.run(loadDone)]);
  // On a machine too busy for the faults to finish in time, the load stopped first: say so, and fail.
  const cutShort = faultsDoneAt === Infinity;
  const faults = await faulting;
  say(
    `load done after ${Math.round((Date.now() - started) / 1000)} s: ${load.events.length} events, ${load.tally.attempts} attempts, statuses ${JSON.stringify(load.tally.byStatus)}, ${load.tally.skippedTicks} ticks skipped`,
  );
  say(`merges asked: ${merger.merges.length}, by outcome ${JSON.stringify(Object.fromEntries(countBy(merger.merges, (m) => m.outcome)))}`);

  const quiet = await waitForQuiet({
    read: () => readActivity(postgres.url),
    smsCount: () => fake.messages().length,
    settleMs: 10_000,
    stuckMs: 45_000,
    timeoutMs: Math.min(240_000, deadline - AFTER_QUIET_MS - Date.now()),
    say,
  });
  say(`${quiet.outcome} after ${Math.round(quiet.waitedS)} s: ${JSON.stringify(quiet.last)}`);

  const rows = await readRows(postgres.url);
  const sms = fake.messages().map((m) => ({ to: m.params.To ?? '', body: m.params.Body ?? '', at: new Date(m.at).toISOString() }));
  // The evidence stays beside the logs: every event as its sender saw it, every SMS as the fake got it.
  await writeFile(path.join(runDir, 'events.jsonl'), load.events.map((e) => JSON.stringify(e)).join('\n'));
  await writeFile(path.join(runDir, 'sms.jsonl'), sms.map((m) => JSON.stringify(m)).join('\n'));
  await writeFile(path.join(runDir, 'merges.jsonl'), merger.merges.map((m) => JSON.stringify(m)).join('\n'));
  const verdict = account({ events: load.events, ...rows, sms, merges: merger.merges });
  if (quiet.outcome !== 'quiet') {
    const pending = await readPendingPages(postgres.url);
    if (pending.length)
      verdict.notes.push(
        `pages left unfinished: ${pending.map((p) => `#${p.number} (${p.incidentStatus}) to ${p.to} ${p.status} since ${p.createdAt}`).join('; ')}`,
      );
  }
  out(summaryLine(verdict));
  const bad = failed(verdict) || quiet.outcome === 'moving' || cutShort || faults.some((f) => f.error);
  if (bad) printDetails(verdict, quiet, faults, cutShort, load.tally, runDir);
  else for (const note of verdict.notes) say(`note: ${note}`);
  return !bad;
}

function printDetails(verdict: Accounting, quiet: QuietResult, faults: FaultRecord[], cutShort: boolean, tally: LoadTally, runDir: string): void {
  out('FAILED');
  if (cutShort) out(`- the load had to stop before the faults were done, to leave time for the accounting (the machine is too busy?)`);
  if (quiet.outcome === 'moving')
    out(
      `- the system was still catching up ${Math.round(quiet.waitedS)} s after the load (${JSON.stringify(quiet.last)}): the counts above include work still in flight`,
    );
  for (const f of faults.filter((f) => f.error)) out(`- fault "${f.name}" failed: ${f.error}`);
  const SHOWN = 40;
  for (const p of verdict.problems.slice(0, SHOWN)) out(`- ${p}`);
  if (verdict.problems.length > SHOWN) out(`- … and ${verdict.problems.length - SHOWN} more (all in ${path.join(runDir, 'verdict.txt')})`);
  for (const n of verdict.notes) out(`  note: ${n}`);
  out(`senders: ${tally.attempts} attempts, answers by status ${JSON.stringify(tally.byStatus)} (0: no answer: refused, cut or timed out)`);
  out(`faults: ${faults.map((f) => `${f.name} at ${f.startedAtS.toFixed(0)} s (${f.tookS.toFixed(1)} s)`).join('; ')}`);
  out(`logs, data, events.jsonl and sms.jsonl: ${runDir}`);
  writeFileSync(path.join(runDir, 'verdict.txt'), [summaryLine(verdict), ...verdict.problems, ...verdict.notes].join('\n'));
}

async function main(): Promise<void> {
  // argv: node, bin/run-ts.js, this file, then the options.
  const opts = parseOptions(process.argv.slice(3));
  installExitHooks(say);
  const runDir = await mkdtemp(path.join(os.tmpdir(), 'klaxon-faults-'));
  // As root, embedded Postgres runs as `postgres`, which must be able to enter this folder.
  await chmod(runDir, 0o755);
  say(`logs and data in ${runDir}${opts.cluster ? ' (cluster shape: Temporal server on PostgreSQL)' : ''}`);
  const deadline = Date.now() + TIME_LIMIT_MS;
  const limit = setTimeout(() => {
    out(`FAILED: the fault suite ran past its time limit (${TIME_LIMIT_MS / 60_000} min); logs and data: ${runDir}`);
    void cleanUp().finally(() => process.exit(1));
  }, TIME_LIMIT_MS);
  let passed = false;
  try {
    passed = await run(opts, runDir, deadline);
  } catch (err) {
    const signal = interruption();
    out(`FAILED: ${signal ? `interrupted by ${signal}` : err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    out(`logs and data: ${runDir}`);
  } finally {
    clearTimeout(limit);
    say('stopping everything');
    await cleanUp();
  }
  if (passed && !opts.keep) await rm(runDir, { recursive: true, force: true });
  process.exit(passed ? 0 : 1);
}

main().catch((err: unknown) => {
  out(`FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
