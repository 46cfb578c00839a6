import { incidentNumberOf, type PagingBench } from './bench';
import { reportEscalation, type EscalationRun } from './escalation-report';
import { fetchHistories, stepTimes } from './history';
import { describeMemory, memoryAfterGc } from './memory';
import { pagingService, smsResponder } from './seed';

/** Incidents escalating at once, opened as a paced burst of new-incident events. */
export const ESCALATING = 1000;
export const BURST_RATE = 200;
/**
 * Seconds each step waits before the next, one responder per step. The first wait outlasts the
 * burst's step-1 pages (tens of seconds on 2 cores), so steps 2 and 3 are timed on 1,000 open,
 * escalating incidents rather than behind a queue of incidents still being opened.
 */
export const STEP_DELAYS_S = [120, 10, 10];

/**
 * (2) Escalation step lateness, and (3) worker memory per open incident: ESCALATING incidents
 * opened in a burst walk the policy together. Memory is read after a full GC before the burst
 * and once every step has paged (all incidents still open). Returns the incident ids, to close.
 */
export async function escalationUnderLoad(p: PagingBench): Promise<string[]> {
  const { b, fake, probe } = p;
  const phase = 'paging: escalation';
  const { orm, ingestUrl, temporal } = b.stack;
  const responders = [];
  for (let i = 0; i < STEP_DELAYS_S.length; i++) responders.push(await smsResponder(orm, b.ws));
  const svc = await pagingService(orm, b.ws, { name: 'escalation', ingestBaseUrl: ingestUrl, steps: responders, delays: STEP_DELAYS_S });
  const start = await b.drain(phase);
  const idle = await memoryAfterGc();
  b.say(`Memory before: ${describeMemory(idle)}`);

  b.say(`Opening ${ESCALATING} incidents at ${BURST_RATE}/s, each escalating over ${STEP_DELAYS_S.length} steps (${STEP_DELAYS_S.join(', ')} s)`);
  const { run, start: atStart } = await p.openIncidents(svc.url, b.prefix('paging-escalation'), {
    rate: BURST_RATE,
    durationS: ESCALATING / BURST_RATE,
    maxInFlight: 64,
  });
  const n = run.answered.length;
  const first = await p.waitForSms(responders[0].phone, n, 'the step-1 SMS');
  const stepOneDone = await p.mark();
  p.cpu(`paging burst: ${n} opened, step-1 SMS`, atStart, stepOneDone, run.cpuMs);
  b.say(`Waiting for steps 2–${responders.length} (the first ${STEP_DELAYS_S[0]} s after step 1)`);
  if (!(await p.waitForFirstSms(responders[1].phone, STEP_DELAYS_S[0] * 1000 + 60_000)))
    throw new Error('no step-2 SMS arrived within a minute of its planned time');
  const stepTwoBegun = await p.mark();
  const last = await p.waitForSms(responders[responders.length - 1].phone, n, `the step-${responders.length} SMS`);
  p.cpu(`paging steps 2–${responders.length} of ${n} open incidents`, stepTwoBegun, await p.mark());
  await b.workerCatchUp('after the last step');
  const open = await memoryAfterGc();
  b.say(`Memory with ${n} open incidents: ${describeMemory(open)}`);

  b.say("Reading each workflow's step times from its history");
  const incidents = await probe.incidents(svc.sourceId);
  const histories = await fetchHistories(
    temporal,
    incidents.map((i) => i.id),
  );
  const idOf = new Map(incidents.map((i) => [i.number, i.id]));
  const stepOf = new Map(responders.map((r, k) => [r.phone, k]));
  const smsAt = new Map<string, number>();
  for (const m of await fake.messages()) {
    const id = idOf.get(incidentNumberOf(m.body));
    const key = `${id}:${stepOf.get(m.to)}`;
    if (id && !smsAt.has(key)) smsAt.set(key, m.at);
  }
  const escalation: EscalationRun = {
    start,
    burstRate: BURST_RATE,
    delaysS: STEP_DELAYS_S,
    run,
    incidents,
    histories,
    smsAt,
    idle,
    open,
    complete: first.complete && last.complete,
    steps: new Map([...histories].map(([id, h]) => [id, stepTimes(h)])),
    pages: await probe.pages(svc.sourceId),
  };
  reportEscalation(b, escalation);
  return incidents.map((i) => i.id);
}
