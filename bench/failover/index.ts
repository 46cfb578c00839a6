/**
 * Carrier failover time (docs/reliability.md, "Carriers"): `npm run bench -- --failover-only
 * [--failover-pages N]` (default 100), and the last phase of the full run, on a stack of its own:
 * with both carriers configured, every other paging phase's page would fail over to Vonage once
 * its wait ran out, for want of a delivery report.
 *
 * The embedded stack with Twilio and Vonage (both wire fakes in processes of their own, each
 * timing on its own clock what it answered) and FAILOVER_AFTER_SECONDS=60, so only a report, not
 * the timer, can fail an SMS over within the minute. Incidents are opened one at a time
 * (sequential, not paced), each paging one SMS responder, and before each a page Twilio takes and
 * reports delivered to another responder keeps the circuit breaker closed: a breaker that opened
 * after five failures would send later pages straight to Vonage, with nothing to fail over.
 *
 * 1. Refused: Twilio answers HTTP 500 to every SMS to the responder; per page, from Twilio's
 *    answer (the fake's clock) to Vonage's acceptance (the fake's record time).
 * 2. Reported at once: Twilio takes the SMS and, the moment its answer is written, sends the signed
 *    StatusCallback `undelivered` (ErrorCode 30003); per page, from Klaxon's answer to that report
 *    to Vonage's acceptance. Whether the report or the timer moved each page is read from its
 *    Twilio carrier attempt (`provider reported …` or `not confirmed within …`) and the wait. A
 *    page the timer moved costs a minute: after TIMER_DRIVEN_STOP of them the scenario stops.
 * 3. Reported once sent: the same report, sent once the page's row says sent (a report seconds
 *    after the SMS, as carriers' usually are): the report-driven path alone.
 */
import { knexOf } from '../../src/db/knex';
import { summarise, valuesRun } from '../harness/load';
import { round } from '../harness/numbers';
import type { Findings, Figure, Rate } from '../harness/report';
import { startBenchStack, type BenchStack, type Say } from '../harness/stack';
import { incidentNumberOf } from '../paging/bench';
import { pagingService, seedPagingWorkspace, smsResponder } from '../paging/seed';
import { TwilioFakeProcess } from '../paging/twilio';
import { deliveredThroughTwilio, reportOnceSent, trigger, vonageTook } from './pages';
import { VonageFakeProcess } from './vonage';

const FAILOVER_AFTER_SECONDS = 60;
/** Past FAILOVER_AFTER_SECONDS: a page not at Vonage by then never failed over. */
const PAGE_TIMEOUT_MS = (FAILOVER_AFTER_SECONDS + 30) * 1000;
/** Reported pages moved by the timer before the scenario stops: each costs a minute. */
const TIMER_DRIVEN_STOP = 5;

/** `--failover-pages N`, 100 when absent. */
function pagesFlag(): number {
  const i = process.argv.indexOf('--failover-pages');
  if (i < 0) return 100;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new Error('--failover-pages takes a number of pages, 1 to 1000');
  return n;
}

/** p50/p99/max as the report computes them, for the printed line. */
function spread(values: number[]): string {
  if (values.length === 0) return 'no samples';
  const s = summarise(valuesRun(values, { durationS: 1, concurrency: 1 }));
  return `p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms`;
}

interface Scenario {
  key: 'refused' | 'reported' | 'reported_once_sent';
  label: string;
  /** Per page: ms from Twilio's setback to Vonage's acceptance. */
  values: number[];
  /** Pages opened. */
  pages: number;
  /** Pages that reached Vonage. */
  reachedVonage: number;
  detail: Record<string, unknown>;
  wallS: number;
}

export async function benchFailover(say: Say): Promise<Findings> {
  const pages = pagesFlag();
  const twilio = await TwilioFakeProcess.start();
  const vonage = await VonageFakeProcess.start().catch(async (err) => {
    await twilio.close();
    throw err;
  });
  const closeFakes = () => Promise.all([twilio.close(), vonage.close()]);
  say('Failover: starting a stack with both carriers (Twilio and Vonage wire fakes)');
  const stack = await startBenchStack(say, {
    ...twilio.env,
    ...vonage.env,
    FAILOVER_AFTER_SECONDS: String(FAILOVER_AFTER_SECONDS),
    FAILOVER_ON_REPORTS: 'true',
  }).catch(async (err) => {
    await closeFakes();
    throw err;
  });
  // Ctrl-C must not leave Postgres, the Temporal server and the fakes running.
  const onSignal = () => void Promise.all([stack.stop(), closeFakes()]).finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const refused = await scenario(stack, twilio, vonage, say, 'refused', pages);
    const reported = await scenario(stack, twilio, vonage, say, 'reported', pages);
    const onceSent = await scenario(stack, twilio, vonage, say, 'reported_once_sent', pages);
    return findings([refused, reported, onceSent], pages, stack);
  } finally {
    say('Failover: stopping its stack');
    await stack.stop();
    await closeFakes();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** One scenario's pages, one at a time, each after a page Twilio delivers. */
async function scenario(
  stack: BenchStack,
  twilio: TwilioFakeProcess,
  vonage: VonageFakeProcess,
  say: Say,
  key: Scenario['key'],
  pages: number,
): Promise<Scenario> {
  const ws = await seedPagingWorkspace(stack.orm);
  const healthy = await smsResponder(stack.orm, ws);
  const paged = await smsResponder(stack.orm, ws);
  const svc = (name: string, id: string) => pagingService(stack.orm, ws, { name, ingestBaseUrl: stack.ingestUrl, steps: [{ id }], delays: [600] });
  const healthySvc = await svc(`failover ${key}: Twilio delivers`, healthy.id);
  const pagedSvc = await svc(`failover ${key}`, paged.id);
  if (key === 'refused') await twilio.failTo(paged.phone, 500);
  if (key === 'reported') await twilio.reportOnArrival(paged.phone, 'undelivered', '30003');
  const label = {
    refused: 'Twilio refuses every SMS (HTTP 500)',
    reported: `Twilio takes each SMS and reports it undelivered (30003) the moment it answered, FAILOVER_AFTER_SECONDS=${FAILOVER_AFTER_SECONDS}`,
    reported_once_sent: `Twilio takes each SMS and reports it undelivered (30003) once the page's row says sent, FAILOVER_AFTER_SECONDS=${FAILOVER_AFTER_SECONDS}`,
  }[key];
  say(`Failover, ${key}: ${label}; ${pages} incidents one at a time, each after a page Twilio delivers`);
  const started = Date.now();
  let reachedVonage = 0;
  let timerDriven = 0;
  let opened = 0;
  const reportsBefore = (await twilio.reports()).length;
  for (let i = 0; i < pages; i++) {
    await deliveredThroughTwilio(stack, twilio, { url: healthySvc.url, title: `failover ${key} healthy ${i + 1}`, phone: healthy.phone, nth: i });
    const title = `failover ${key} ${i + 1}`;
    await trigger(pagedSvc.url, title);
    opened++;
    const t0 = Date.now();
    if (key === 'reported_once_sent')
      await reportOnceSent(stack, twilio, { title, phone: paged.phone, nth: i }, { messageStatus: 'undelivered', errorCode: '30003' });
    if (await vonageTook(vonage, paged.phone, reachedVonage + 1, PAGE_TIMEOUT_MS)) reachedVonage++;
    // A report lost (or not acted on) leaves the page to the timer: a minute each.
    if (key !== 'refused' && Date.now() - t0 > FAILOVER_AFTER_SECONDS * 1000 - 5_000) timerDriven++;
    if (timerDriven >= TIMER_DRIVEN_STOP) {
      say(`  ${timerDriven} pages waited for the timer, not the report: stopping after ${opened}`);
      break;
    }
    if ((i + 1) % 20 === 0) say(`  ${i + 1} of ${pages} incidents, ${reachedVonage} at Vonage`);
  }
  const wallS = round((Date.now() - started) / 1000);

  const digits = paged.phone.replace('+', '');
  const atVonage = new Map((await vonage.messages()).filter((m) => m.to === digits).map((m) => [incidentNumberOf(m.text), m.at]));
  const setbackAt = new Map<number, number>();
  const detail: Record<string, unknown> = {};
  if (key === 'refused') {
    const answers = (await twilio.answered()).filter((r) => r.to === paged.phone);
    for (const r of answers) if (r.status === 500) setbackAt.set(incidentNumberOf(r.body), r.at);
    detail.twilio_refusals = answers.filter((r) => r.status === 500).length;
    detail.twilio_taken = answers.filter((r) => r.status < 300).length;
  } else {
    const reports = (await twilio.reports(reportsBefore)).filter((r) => r.to === paged.phone);
    for (const r of reports) setbackAt.set(incidentNumberOf(r.body), r.answeredAt);
    const attempts = (await knexOf(stack.orm)('carrier_attempts')
      .whereIn(
        'provider_message_id',
        reports.map((r) => r.sid),
      )
      .select('error')) as Array<{ error: string | null }>;
    detail.reports_sent = reports.length;
    detail.report_answers = countBy(reports.map((r) => String(r.answer)));
    // How each Twilio attempt was settled: by the report, or by the timer running out.
    detail.twilio_attempts_settled_by = countBy(attempts.map((a) => (a.error?.startsWith('provider reported') ? 'report' : a.error ? 'timer' : 'unsettled')));
    detail.waited_for_the_timer = timerDriven;
  }
  const values: number[] = [];
  for (const [n, from] of setbackAt) {
    const to = atVonage.get(n);
    if (to !== undefined) values.push(to - from);
  }
  say(`  ${key}: ${reachedVonage}/${opened} pages reached Vonage in ${wallS} s; setback → Vonage ${spread(values)} (${values.length} matched)`);
  return { key, label, values, pages: opened, reachedVonage, detail: { ...detail, values_ms: values }, wallS };
}

function countBy(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}

function findings(scenarios: Scenario[], pages: number, stack: BenchStack): Findings {
  const figures: Figure[] = [];
  const rates: Rate[] = [];
  const notes: string[] = [];
  for (const s of scenarios) {
    const like = { durationS: s.wallS, concurrency: 1 };
    const what = {
      refused: "Twilio's HTTP 500 → Vonage took the SMS",
      reported: 'report at once answered → Vonage took the SMS',
      reported_once_sent: 'report once sent answered → Vonage took the SMS',
    }[s.key];
    figures.push({
      key: `failover_${s.key}_to_vonage_ms`,
      label: `failover: ${what}`,
      run: valuesRun(s.values, like, { not_at_vonage: s.pages - s.values.length }),
    });
    rates.push({
      key: `failover_${s.key}_reached_vonage`,
      label: `failover (${s.key}): pages that reached Vonage`,
      value: s.reachedVonage,
      unit: 'pages',
      target: { min: s.pages },
      detail: `of ${s.pages} opened (${pages} asked), one at a time, in ${s.wallS} s; ${s.values.length} timed from the setback`,
    });
    if (s.key !== 'refused') {
      const timer = Number(s.detail.waited_for_the_timer);
      rates.push({
        key: `failover_${s.key}_by_report`,
        label: `failover (${s.key}): moved by the report, not the timer`,
        value: s.pages - timer,
        unit: 'pages',
        target: { min: s.pages },
        detail: `of ${s.pages}; ${timer} waited FAILOVER_AFTER_SECONDS${timer >= TIMER_DRIVEN_STOP ? ` (the scenario stops after ${TIMER_DRIVEN_STOP})` : ''}`,
      });
    }
    notes.push(`Failover, ${s.key} (${s.label}): ${s.values.length} pages, ${spread(s.values)}; ${JSON.stringify({ ...s.detail, values_ms: undefined })}.`);
  }
  notes.push(
    `Failover stack: embedded Postgres and Temporal, both carriers (Twilio and Vonage wire fakes, each in a process of its own), FAILOVER_AFTER_SECONDS=${FAILOVER_AFTER_SECONDS}; incidents opened one at a time, each after a page Twilio took and was reported delivered (the breaker stays closed); times are between the two fakes' clocks (one machine). Warn/error log lines on it: ${stack.logs.count}.`,
  );
  return {
    figures,
    rates,
    notes,
    phases: { failover: Object.fromEntries(scenarios.map((s) => [s.key, { pages: s.pages, reached_vonage: s.reachedVonage, wall_s: s.wallS, ...s.detail }])) },
  };
}
