import { cpuMsPer } from '../harness/cpu';
import { profiled, threadCpuMs, threadCpuPer } from '../harness/profile';
import { statusesOf, valuesRun } from '../harness/load';
import { perS } from '../harness/numbers';
import type { Bounds } from '../harness/report';
import { inCores, perUnit } from '../harness/component-cpu';
import type { BenchStack } from '../harness/stack';
import { round } from '../harness/numbers';
import type { UnitCpu } from '../harness/report';
import { incidentNumberOf, type PagingBench, type PagingMark } from './bench';
import { fetchHistories, historyCounts, meanCounts, startedAt, stepTimes, taskSplit, type History } from './history';
import { pagesOffSms, type OpenedIncident } from './probe';
import { pagingService, smsResponder } from './seed';
import { splitFigures } from './split';

/** How a run of new paging incidents is paced; `target` only on the rate the target is judged at. */
export interface FirstPageLoad {
  rate: number;
  durationS: number;
  target?: Bounds;
}

/**
 * (1) 202 → first provider request: a steady, paced `rate` of events, each opening a new incident
 * on a service whose policy's step 1 pages one responder by SMS at delay 0; per event, from the
 * load generator reading its 202 to the Twilio fake receiving its SMS. Returns the incident ids.
 */
export async function firstPageSteady(p: PagingBench, { rate, durationS, target }: FirstPageLoad): Promise<string[]> {
  const { b, probe } = p;
  const phase = `paging: 202 → first SMS, ${rate}/s`;
  const { orm, ingestUrl } = b.stack;
  const responder = await smsResponder(orm, b.ws);
  const svc = await pagingService(orm, b.ws, { name: `first page ${rate}/s`, ingestBaseUrl: ingestUrl, steps: [responder], delays: [60] });
  const start = await b.drain(phase);
  b.say(`New incidents paging by SMS at a steady ${rate}/s for ${durationS} s`);
  const queriesAtStart = p.queries;
  p.takeStatements();
  const threadsAtStart = threadCpuMs();
  const {
    run,
    start: atStart,
    arrived,
  } = await profiled(target ? process.env.BENCH_CPU_PROFILE : undefined, async () => {
    const opened = await p.openIncidents(svc.url, b.prefix(`paging-first-${rate}`), { rate, durationS, maxInFlight: 32 });
    return { ...opened, arrived: await p.waitForSms(responder.phone, opened.run.answered.length, 'the first SMS') };
  });
  const atEnd = await p.mark();
  const queries = p.queries - queriesAtStart;
  for (const [sql, n] of p.takeStatements()) b.say(`  sql ${(n / Math.max(1, run.answered.length)).toFixed(2)}/incident: ${sql}`);
  b.say(`  this process's CPU per incident by thread (ms): ${JSON.stringify(threadCpuPer(threadsAtStart, threadCpuMs(), Math.max(1, run.answered.length)))}`);
  p.cpu(`paging ${rate}/s: load and first SMS`, atStart, atEnd, run.cpuMs);
  // CPU per incident: this process (API, relay, worker, the bench's polling), Postgres, Temporal.
  const perIncident = cpuMsPer(atStart.cpu, atEnd.cpu, Math.max(1, run.answered.length));
  b.say(
    `  CPU per incident at ${rate}/s (ms): ${JSON.stringify(perIncident)}; SQL statements per incident: ${(queries / Math.max(1, run.answered.length)).toFixed(1)}`,
  );

  const { incidents, smsAt } = await firstSmsByTitle(p, svc.sourceId, responder.phone);
  const pages = await probe.pages(svc.sourceId);
  const titleOf = new Map(incidents.map((i) => [i.id, i.title]));
  const rowAt = new Map(pages.filter((r) => r.step === 0).map((r) => [titleOf.get(r.incidentId)!, r.createdAt]));
  const deliveredAt = await b.probe.deliveredAtByTitle(svc.sourceId);
  // Inside the workflow: from its start to the first page's send activity done, task by task.
  const histories = [
    ...(
      await fetchHistories(
        b.stack.temporal,
        incidents.map((i) => i.id),
      )
    ).values(),
  ];
  const counts = historyCounts(histories);
  b.say(`  per incident, from the histories: ${JSON.stringify(counts)}`);
  const sentAt = histories.map((h) => ({ h, from: startedAt(h), to: stepTimes(h).sent[0] })).filter((x) => !Number.isNaN(x.to));
  const unitCpu = perIncidentCpu(p, { key: `paging_${rate}ps`, label: `paging ${rate}/s` }, atStart, atEnd, smsAt.size, histories);

  // Where the time goes. Clamped at 0: the 202 is timed when the load generator has read it, and
  // the relay stamps delivered_at after its batch's calls, so the next step may come first.
  const total: number[] = [];
  const toDelivered: number[] = [];
  const deliveredToRow: number[] = [];
  const rowToSms: number[] = [];
  for (const [title, answeredAt] of run.answered) {
    const at = smsAt.get(title);
    if (at === undefined) continue;
    total.push(Math.max(0, at - answeredAt));
    const delivered = deliveredAt.get(title) ?? NaN;
    const row = rowAt.get(title) ?? NaN;
    if (Number.isNaN(delivered) || Number.isNaN(row)) continue;
    toDelivered.push(Math.max(0, delivered - answeredAt));
    deliveredToRow.push(Math.max(0, row - delivered));
    rowToSms.push(Math.max(0, at - row));
  }
  const missing = run.answered.length - total.length;
  const key = (name: string) => `paging_${name}_${rate}ps_ms`;
  b.out.figures.push(
    { key: key('ingest_new_incident'), label: `paging: ingest new incident, ${rate}/s`, run },
    { key: key('202_to_first_sms'), label: `202 → first SMS at Twilio, ${rate}/s`, run: valuesRun(total, run, { no_sms: missing }), ...(target && { target }) },
    { key: key('202_to_delivered'), label: '  of which 202 → relay delivered', run: valuesRun(toDelivered, run) },
    { key: key('delivered_to_page_row'), label: '  of which delivered → page row written', run: valuesRun(deliveredToRow, run) },
    { key: key('page_row_to_sms'), label: '  of which page row → SMS at Twilio', run: valuesRun(rowToSms, run) },
    {
      key: key('workflow_start_to_sent'),
      label: '  workflow start → send activity done',
      run: valuesRun(
        sentAt.map((x) => x.to - x.from),
        run,
      ),
    },
    ...splitFigures(
      `paging_first_sms_${rate}ps`,
      sentAt.map((x) => taskSplit(x.h, x.from, x.to)),
      run,
    ),
  );
  const lastSms = Math.max(...smsAt.values());
  b.out.rates.push({
    key: `paging_first_sms_${rate}ps_per_s`,
    label: `first SMS sent, ${rate}/s offered`,
    value: perS(total.length, lastSms - run.first2xxAt),
    unit: 'incidents/s',
    detail: `${total.length} SMS, first 202 → last SMS ${((lastSms - run.first2xxAt) / 1000).toFixed(1)} s`,
  });
  const off = pagesOffSms(pages);
  b.phase(phase, {
    sent: Math.round(rate * durationS),
    answered_2xx: run.answered.length,
    statuses: run.statuses,
    incidents: incidents.length,
    sms_matched: total.length,
    sms_wait_complete: arrived.complete,
    pages_not_sent_as_sms: off,
    cpu_ms_per_incident: perIncident,
    cpu_ms_per_incident_by_component: Object.fromEntries(unitCpu.ms),
    sql_statements_per_incident: queries / Math.max(1, run.answered.length),
    history_per_incident: counts,
  });
  b.out.notes.push(
    `202 → first SMS at ${rate}/s (${start}): ${Math.round(rate * durationS)} events paced one every ${1000 / rate} ms; answers ${statusesOf(run)}. ` +
      `${missing ? `${missing} accepted events got no SMS within the wait.` : 'Every accepted event got its SMS.'}${Object.keys(off).length ? ` Pages not sent as SMS: ${JSON.stringify(off)}.` : ''}`,
  );
  return incidents.map((i) => i.id);
}

/** The incidents a source's alerts opened, and when the first SMS about each reached the fake, by its alert's title. */
export async function firstSmsByTitle(p: PagingBench, sourceId: string, phone: string): Promise<{ incidents: OpenedIncident[]; smsAt: Map<string, number> }> {
  const incidents = await p.probe.incidents(sourceId);
  const byNumber = new Map(incidents.map((i) => [i.number, i]));
  const smsAt = new Map<string, number>();
  for (const m of await p.fake.messages()) {
    const incident = m.to === phone ? byNumber.get(incidentNumberOf(m.body)) : undefined;
    if (incident && !smsAt.has(incident.title)) smsAt.set(incident.title, m.at);
  }
  return { incidents, smsAt };
}

/** The CPU-per-incident table's unit. */
export const PAGING_UNIT = 'new paging incident (ingest → first SMS)';

/**
 * CPU ms per new paging incident over a phase, by component, from the load's start to its last
 * first SMS (`smsCount` incidents), and its incidents' history counts up to the first send: a
 * column of the CPU-per-incident table.
 */
export function perIncidentCpu(
  p: PagingBench,
  column: { key: string; label: string },
  from: PagingMark,
  to: PagingMark,
  smsCount: number,
  histories: History[],
): UnitCpu {
  const c = p.b.stack.components.diff(from.components, to.components);
  const h = meanCounts(histories);
  const unit: UnitCpu = {
    ...column,
    unit: PAGING_UNIT,
    units: smsCount,
    ms: perUnit(c, smsCount),
    counts: [
      ['history events', round(h.events, 1)],
      ['workflow tasks', round(h.workflowTasks, 2)],
      ['local activities', round(h.localActivities, 2)],
      ['remote activities', round(h.activities, 2)],
    ],
  };
  (p.b.out.perUnit ??= []).push(unit);
  p.b.phase(`cpu per incident: ${column.label}`, {
    seconds: c.seconds,
    incidents: smsCount,
    histories_counted: h.histories,
    cores: Object.fromEntries(inCores(c)),
  });
  return unit;
}

/** How the CPU-per-incident table is made, for the report. */
export function cpuPerIncidentMethod(stack: BenchStack): string {
  const shape =
    stack.shape === 'single'
      ? "Single-process shape: this process per kind of thread; the API, the outbox relay and the activities share the main thread and its event loop, so /proc cannot split them (the bench's own polling of the fake and of Postgres is there too; the cluster shape splits them by process)"
      : 'Cluster shape: each `klaxon api` process (listeners, no relay), the `klaxon relay` process, each `klaxon worker` process per kind of thread';
  return (
    'CPU per new paging incident: CPU time of each component from the paging load generator starting to the last first SMS arriving, divided by the incidents whose first SMS arrived; ' +
    "from /proc (utime + stime, 10 ms ticks): Postgres is the postmaster, its backends and its exited backends (cutime/cstime), the Temporal server its process tree; on the cluster shape Postgres is split by the database each live backend serves (its process title): Temporal's own persistence, and the rest (Klaxon's database, background processes, backends that exited). " +
    `${shape}. Workflow threads are the Node worker threads (bench/harness/proc.ts says how they are told apart); "Temporal core" the Rust threads of the SDK's core (tokio-runtime-w, workflow-proces, temporal-real-s); "other" V8's and libuv's threads and whatever exited during the stretch (the vm watchdog threads). ` +
    'Idle work over the stretch (timers, pollers, Postgres housekeeping) is counted too: at low rates it weighs more per incident. ' +
    'History counts: per incident, in its workflow history up to the first page sent (the sendPage local-activity marker, or its ActivityTaskCompleted): all events, completed workflow tasks, local activities (markers) and remote activities (scheduled).'
  );
}

/** How the 202 → first SMS figures are taken, for the report (once for all rates). */
export const FIRST_PAGE_METHOD =
  '202 → first SMS: Form A events paced (open loop), none with a dedup_key, so each opens an incident and its workflow, on a service whose policy has one step paging one responder, whose one rule is SMS at delay 0. ' +
  'Per event: the arrival time the Twilio fake (its own process, the real Twilio SDK calling it) stamps on the SMS, matched to the incident by the `#number` in its text, minus the wall-clock time the load generator read the 202; same machine, same clock. ' +
  "Split: 202 → the outbox row's delivered_at (the relay's queue and its start call: eager, so the first workflow task goes straight to the worker in the same process) → the notifications row's created_at (the first workflow task: policy and recipients lookups, quota and reply code) → arrival (rendering, the Twilio SDK's HTTP call); each clamped at 0. " +
  "Inside the workflow, from its history: workflow start → the first page sent (its first attempt is a local activity inside that workflow task: the worker's completion time), and under it each kind of task scheduled in that stretch, summed per incident: time queued for the worker (scheduled → started) and running (started → completed). " +
  '"first SMS sent" is SMS matched ÷ (last SMS − first 202): what the stack sustained.';
