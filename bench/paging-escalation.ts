import { JSON_HEADERS, measuredLoad, statusesOf } from './ingest-bench';
import { incidentNumberOf, valuesRun, type PagingBench } from './paging-bench';
import { fetchHistories, stepTimes, taskSplit, type TaskSplit } from './paging-history';
import { stepLateness } from './paging-lateness';
import { describeMemory, memoryAfterGc, memoryJson, type MemorySample } from './paging-memory';
import { pagesOffSms } from './paging-probe';
import { pagingService, smsResponder } from './paging-seed';
import { splitFigures } from './paging-split';

/** Incidents escalating at once, opened as a paced burst of new-incident events. */
export const ESCALATING = 1000;
const BURST_RATE = 200;
/** Steps of the policy, each paging its own responder by SMS at once, this far apart. */
const STEPS = 3;
export const STEP_DELAY_S = 10;

/**
 * (2) Escalation step lateness, and (3) worker memory per open incident: ESCALATING incidents
 * opened in a burst walk a STEPS-step policy together; for steps 2.., the SMS arrival at the fake
 * minus the time the workflow planned (step before woke + delay). Memory is read, after a full
 * GC, before the burst and once every step has paged (all incidents still open). Returns the
 * incident ids, for the caller to close.
 */
export async function escalationUnderLoad(p: PagingBench): Promise<{ ids: string[]; open: MemorySample }> {
  const { b, fake, probe } = p;
  const phase = 'paging: escalation';
  const { orm, ingestUrl, temporal } = b.stack;
  const responders = [];
  for (let i = 0; i < STEPS; i++) responders.push(await smsResponder(orm, b.ws));
  const svc = await pagingService(orm, b.ws, { name: 'escalation', ingestBaseUrl: ingestUrl, steps: responders, delaySeconds: STEP_DELAY_S });
  const prefix = b.prefix('paging-escalation');
  const start = await b.drain(phase);
  const idle = await memoryAfterGc();
  b.say(`Memory before: ${describeMemory(idle)}`);

  b.say(`Opening ${ESCALATING} incidents at ${BURST_RATE}/s, each escalating over ${STEPS} steps ${STEP_DELAY_S} s apart`);
  const fakeAtStart = await fake.cpuMs();
  const { run, cpuAtStart } = await measuredLoad({
    url: svc.url,
    method: 'POST',
    headers: JSON_HEADERS,
    request: { kind: 'alert', prefix },
    shape: { kind: 'paced', rate: BURST_RATE, durationS: ESCALATING / BURST_RATE, maxInFlight: 64 },
  });
  const n = run.answered.length;
  const opened = { cpu: cpuAtStart, fakeMs: fakeAtStart };
  const first = await p.waitForSms(responders[0].phone, n, 'the step-1 SMS');
  const stepOneDone = await p.mark();
  p.cpu(`paging burst: ${n} opened, step-1 SMS`, opened, stepOneDone, run.cpuMs);
  const last = await p.waitForSms(responders[STEPS - 1].phone, n, `the step-${STEPS} SMS`);
  p.cpu(`paging steps 2–${STEPS} of ${n} incidents`, stepOneDone, await p.mark());
  await b.workerCatchUp('after the last step');
  const open = await memoryAfterGc();
  b.say(`Memory with ${n} open incidents: ${describeMemory(open)}`);

  b.say('Reading each workflow\'s step times from its history');
  const incidents = await probe.incidents(svc.sourceId);
  const histories = await fetchHistories(temporal, incidents.map((i) => i.id));
  const times = new Map([...histories].map(([id, h]) => [id, stepTimes(h)]));
  const woke = new Map([...times].map(([id, t]) => [id, t.woke]));
  const idOf = new Map(incidents.map((i) => [i.number, i.id]));
  const stepOf = new Map(responders.map((r, k) => [r.phone, k]));
  const smsAt = new Map<string, number>();
  for (const m of await fake.messages()) {
    const id = idOf.get(incidentNumberOf(m.body));
    const key = `${id}:${stepOf.get(m.to)}`;
    if (id && !smsAt.has(key)) smsAt.set(key, m.at);
  }
  // Inside the workflows: from each later step's planned time to its page's send activity done.
  const stepped: Array<{ from: number; to: number; split: TaskSplit }> = [];
  for (const [id, t] of times) {
    for (let k = 1; k < STEPS; k++) {
      const from = t.woke[k - 1] + STEP_DELAY_S * 1000;
      if (!Number.isNaN(from) && !Number.isNaN(t.sent[k])) stepped.push({ from, to: t.sent[k], split: taskSplit(histories.get(id)!, from, t.sent[k]) });
    }
  }
  const lateness = stepLateness(woke, STEP_DELAY_S * 1000, STEPS, (id, k) => smsAt.get(`${id}:${k}`));
  const all = (pick: (l: (typeof lateness)[number]) => number[]) => lateness.flatMap(pick);
  const missing = lateness.reduce((s, l) => s + l.missing, 0);
  const titleAt = new Map(incidents.map((i) => [i.title, smsAt.get(`${i.id}:0`)]));
  const firstSms = run.answered.flatMap(([title, at]) => (titleAt.get(title) === undefined ? [] : [Math.max(0, titleAt.get(title)! - at)]));
  b.out.figures.push(
    { key: 'paging_burst_202_to_step1_sms_ms', label: `202 → step-1 SMS, burst of ${n} at ${BURST_RATE}/s`, run: valuesRun(firstSms, run, { no_sms: n - firstSms.length }) },
    { key: 'paging_step_lateness_ms', label: `escalation lateness, steps 2–${STEPS}, ${n} incidents`, run: valuesRun(all((l) => l.total), run, { no_sms: missing }), target: { p99: 1000 } },
    { key: 'paging_step_lateness_wake_ms', label: '  of which planned → workflow woke', run: valuesRun(all((l) => l.wake), run) },
    { key: 'paging_step_lateness_page_ms', label: '  of which woke → SMS at Twilio', run: valuesRun(all((l) => l.page), run) },
    { key: 'paging_step_planned_to_sent_ms', label: '  planned → send activity done', run: valuesRun(stepped.map((x) => x.to - x.from), run) },
    ...splitFigures('paging_step', stepped.map((x) => x.split), run),
    ...lateness.map((l, i) => ({ key: `paging_step${i + 2}_lateness_ms`, label: `  step ${i + 2} alone`, run: valuesRun(l.total, run, { no_sms: l.missing }) })),
  );
  const perIncident = (x: number) => (n > 0 ? x / n / 1024 : NaN);
  const heapDelta = open.mainHeap + open.threadHeap - idle.mainHeap - idle.threadHeap;
  b.out.rates.push(
    { key: 'paging_memory_heap_per_open_incident_kib', label: 'worker memory per open incident (V8 heaps)', value: perIncident(heapDelta), unit: 'KiB', detail: `main + workflow-thread heaps after GC, ${n} open incidents` },
    { key: 'paging_memory_rss_per_open_incident_kib', label: 'worker memory per open incident (RSS)', value: perIncident(open.rss - idle.rss), unit: 'KiB', detail: `whole process, ${n} open incidents` },
  );
  const off = pagesOffSms(await probe.pages(svc.sourceId));
  b.phase(phase, {
    opened: n, statuses: run.statuses, step1_wait_s: Math.round(first.ms / 100) / 10, step1_complete: first.complete, last_step_complete: last.complete,
    pages_not_sent_as_sms: off, memory_idle: memoryJson(idle), memory_open: memoryJson(open),
  });
  b.out.notes.push(
    `Escalation (${start}): ${ESCALATING} Form A events paced at ${BURST_RATE}/s, each opening an incident (answers ${statusesOf(run)}) on a service whose policy has ${STEPS} steps ${STEP_DELAY_S} s apart, step k paging responder k by SMS at delay 0; the step-1 SMS of all took ${(first.ms / 1000).toFixed(1)} s to arrive after the burst. ` +
      `Lateness of step k+1 = its SMS's arrival at the Twilio fake − (the workflow time at which step k woke, read from the \`at\` of its stepRecipients activity in the history, + ${STEP_DELAY_S} s): exactly what the workflow planned, so step k's own send time does not enter. ` +
      `Split at the workflow time at which step k+1 woke (timer firing and the workflow task reaching the worker) and the rest (recipients lookup, send activity with its quota and reply-code transaction, Twilio SDK). ${missing ? `${missing} planned pages had no SMS.` : 'Every planned page arrived.'}${Object.keys(off).length ? ` Pages not sent as SMS: ${JSON.stringify(off)}.` : ''}`,
    `Worker memory: forced full GC in the main thread and every worker thread (an in-process inspector session: HeapProfiler.collectGarbage, Runtime.getHeapUsage; the Temporal SDK runs workflows in a worker thread), before the burst (${describeMemory(idle)}) and once all ${STEPS} steps had paged, ${n} incidents TRIGGERED and cached (${describeMemory(open)}); difference ÷ ${n}. RSS also counts the Temporal core's native workflow state and freed heap not yet returned to the OS. The worker caches up to 5,000 workflows (maxCachedWorkflows).`,
  );
  return { ids: incidents.map((i) => i.id), open };
}
