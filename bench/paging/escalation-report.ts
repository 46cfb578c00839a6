import { valuesRun, type LoadRun } from '../harness/load';
import type { IngestBench } from '../ingest/bench';
import { taskSplit, type History, type StepTimes, type TaskSplit } from './history';
import { stepLateness } from './lateness';
import { describeMemory, memoryJson, type MemorySample } from './memory';
import { pagesOffSms, type OpenedIncident, type PageRow } from './probe';
import { splitFigures } from './split';

/** What the escalation phase collected, for its figures. */
export interface EscalationRun {
  /** How the phase started (drain), for the note. */
  start: string;
  burstRate: number;
  delaysS: number[];
  run: LoadRun;
  incidents: OpenedIncident[];
  histories: Map<string, History>;
  steps: Map<string, StepTimes>;
  /** SMS arrival at the fake by `<incident id>:<step>`. */
  smsAt: Map<string, number>;
  pages: PageRow[];
  idle: MemorySample;
  open: MemorySample;
  /** Every step's SMS arrived (no 30 s stall). */
  complete: boolean;
}

const s1 = (ms: number) => (ms / 1000).toFixed(1);

/** Lateness of steps 2.. (SMS arrival − planned), where it goes, and memory per open incident. */
export function reportEscalation(b: IngestBench, e: EscalationRun): void {
  const { run, delaysS } = e;
  const n = run.answered.length;
  const delaysMs = delaysS.map((d) => d * 1000);
  const woke = new Map([...e.steps].map(([id, t]) => [id, t.woke]));
  const lateness = stepLateness(woke, delaysMs, (id, k) => e.smsAt.get(`${id}:${k}`));
  const all = (pick: (l: (typeof lateness)[number]) => number[]) => lateness.flatMap(pick);
  const missing = lateness.reduce((sum, l) => sum + l.missing, 0);
  // Inside the workflows: from each later step's planned time to its page's send activity done.
  const stepped: Array<{ from: number; to: number; split: TaskSplit }> = [];
  for (const [id, t] of e.steps) {
    for (let k = 1; k < delaysS.length; k++) {
      const from = t.woke[k - 1] + delaysMs[k - 1];
      if (!Number.isNaN(from) && !Number.isNaN(t.sent[k])) stepped.push({ from, to: t.sent[k], split: taskSplit(e.histories.get(id)!, from, t.sent[k]) });
    }
  }
  const titleAt = new Map(e.incidents.map((i) => [i.title, e.smsAt.get(`${i.id}:0`)]));
  const firstSms = run.answered.flatMap(([title, at]) => (titleAt.get(title) === undefined ? [] : [Math.max(0, titleAt.get(title)! - at)]));
  b.out.figures.push(
    {
      key: 'paging_burst_202_to_step1_sms_ms',
      label: `202 → step-1 SMS, burst of ${n} at ${e.burstRate}/s`,
      run: valuesRun(firstSms, run, { no_sms: n - firstSms.length }),
    },
    {
      key: 'paging_step_lateness_ms',
      label: `escalation lateness, steps 2–${delaysS.length}, ${n} open`,
      run: valuesRun(
        all((l) => l.total),
        run,
        { no_sms: missing },
      ),
      target: { p99: 1000 },
    },
    {
      key: 'paging_step_lateness_wake_ms',
      label: '  of which planned → workflow woke',
      run: valuesRun(
        all((l) => l.wake),
        run,
      ),
    },
    {
      key: 'paging_step_lateness_page_ms',
      label: '  of which woke → SMS at Twilio',
      run: valuesRun(
        all((l) => l.page),
        run,
      ),
    },
    ...lateness.map((l, i) => ({
      key: `paging_step${i + 2}_lateness_ms`,
      label: `  step ${i + 2} alone`,
      run: valuesRun(l.total, run, { no_sms: l.missing }),
    })),
    {
      key: 'paging_step_planned_to_sent_ms',
      label: '  planned → page sent',
      run: valuesRun(
        stepped.map((x) => x.to - x.from),
        run,
      ),
    },
    ...splitFigures(
      'paging_step',
      stepped.map((x) => x.split),
      run,
    ),
  );
  const perIncident = (bytes: number) => (n > 0 ? bytes / n / 1024 : NaN);
  const { idle, open } = e;
  const heapDelta = open.mainHeap + open.threadHeap - idle.mainHeap - idle.threadHeap;
  b.out.rates.push(
    {
      key: 'paging_memory_heap_per_open_incident_kib',
      label: 'worker memory per open incident (V8 heaps)',
      value: perIncident(heapDelta),
      unit: 'KiB',
      detail: `main + workflow-thread heaps after GC, ${n} open incidents`,
    },
    {
      key: 'paging_memory_rss_per_open_incident_kib',
      label: 'worker memory per open incident (RSS)',
      value: perIncident(open.rss - idle.rss),
      unit: 'KiB',
      detail: `whole process, ${n} open incidents`,
    },
  );
  // Did the burst's step-1 pages end before the first step 2 was due? Otherwise steps 2.. queued behind them.
  const lastStepOne = Math.max(...e.incidents.map((i) => e.smsAt.get(`${i.id}:0`) ?? -Infinity));
  const firstStepTwo = Math.min(...[...woke.values()].map((t) => t[0] + delaysMs[0]).filter((t) => !Number.isNaN(t)));
  const off = pagesOffSms(e.pages);
  b.phase('paging: escalation', {
    opened: n,
    statuses: run.statuses,
    all_sms_arrived: e.complete,
    step1_end_to_step2_start_s: Number(s1(firstStepTwo - lastStepOne)),
    pages_not_sent_as_sms: off,
    memory_idle: memoryJson(idle),
    memory_open: memoryJson(open),
  });
  b.out.notes.push(
    `Escalation (${e.start}): ${n} Form A events paced at ${e.burstRate}/s (answers ${JSON.stringify(run.statuses)}), each opening an incident on a service whose policy has ${delaysS.length} steps waiting ${delaysS.join(', ')} s, step k paging responder k by SMS at delay 0. ` +
      `The last step-1 SMS arrived ${s1(lastStepOne - run.first2xxAt)} s after the first 202; the first step 2 was due ${s1(firstStepTwo - lastStepOne)} s after that (${firstStepTwo > lastStepOne ? 'so steps 2.. ran on open incidents, not behind the burst' : "negative: steps 2.. overlapped the burst's step-1 pages"}). ` +
      "Lateness of step k+1 = its SMS's arrival at the Twilio fake − (the workflow time at which step k woke, the `at` of its stepRecipients activity in the history, + step k's delay): what the workflow planned, so step k's own send time does not enter. " +
      'Split at the workflow time step k+1 woke (timer firing, workflow task reaching the worker) and the rest (recipients lookup, the first attempt of the send, a local activity, with its quota and reply code, Twilio SDK); then, from the histories, each kind of task scheduled between planned time and the page sent, queued and running, summed per page. ' +
      `${missing ? `${missing} planned pages had no SMS.` : 'Every planned page arrived.'}${Object.keys(off).length ? ` Pages not sent as SMS: ${JSON.stringify(off)}.` : ''}`,
    `Worker memory: forced full GC in the main thread and every worker thread (an in-process inspector session: HeapProfiler.collectGarbage, Runtime.getHeapUsage; the Temporal SDK runs workflows in worker threads), before the burst (${describeMemory(idle)}) and once all steps had paged, ${n} incidents TRIGGERED and cached (${describeMemory(open)}); difference ÷ ${n}. RSS also counts the Temporal core's native workflow state and freed heap not yet returned to the OS. The worker caches up to 5,000 workflows (maxCachedWorkflows).`,
  );
}
