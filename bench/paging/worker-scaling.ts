import os from 'node:os';
import { inCores, perUnit, totalMs, type ComponentCpu } from '../harness/component-cpu';
import type { ClusterRoles } from '../harness/cluster-stack';
import { perS, round } from '../harness/numbers';
import type { PagingBench } from './bench';
import { firstSmsByTitle, PAGING_UNIT } from './first-page';
import { fetchHistories, meanCounts } from './history';
import { pagingService, smsResponder } from './seed';

/** New paging incidents per second offered: above what one worker takes on 2 cores. */
export const SCALING_RATE = 50;
export const SCALING_S = 18;
/** The first seconds of a run are left out of the sustained rate (queues filling, caches warming). */
const WARMUP_MS = 5000;

/** What one run at SCALING_RATE found. */
interface ScalingRun {
  workers: number;
  /** First SMS per second from WARMUP_MS after the first 202 to the last SMS. */
  sustained: number;
  sms: number;
  answered: number;
  cpu: ComponentCpu;
}

/**
 * (3) Cluster only: the paging rate the cluster sustains with one worker, then with all of them:
 * SCALING_RATE/s of new paging incidents for SCALING_S, once with workers 2…N stopped, once with
 * them started again. Per run: first SMS per second once warm, CPU per incident by component, and
 * each worker's busy fraction. Returns the incident ids, to close.
 */
export async function workerScaling(p: PagingBench, cluster: ClusterRoles): Promise<string[]> {
  const { b } = p;
  const n = cluster.workers.length;
  const ids: string[] = [];
  const runs: ScalingRun[] = [];
  for (const workers of n > 1 ? [1, n] : [1]) {
    const standing = cluster.workers.slice(workers);
    if (workers === 1 && standing.length) {
      b.say(`Stopping ${standing.map((w) => w.name).join(', ')}: one worker`);
      await Promise.all(standing.map((w) => w.stop(30_000)));
    } else if (workers > 1) {
      b.say(
        `Starting ${cluster.workers
          .slice(1)
          .map((w) => w.name)
          .join(', ')} again: ${workers} workers`,
      );
      await Promise.all(cluster.workers.slice(1).map((w) => (w.running ? undefined : w.start())));
    }
    const { run, incidentIds } = await oneRun(p, workers);
    runs.push(run);
    ids.push(...incidentIds);
  }
  report(p, runs);
  return ids;
}

async function oneRun(p: PagingBench, workers: number): Promise<{ run: ScalingRun; incidentIds: string[] }> {
  const { b } = p;
  const label = `${workers} worker${workers === 1 ? '' : 's'}`;
  const phase = `paging: sustained rate, ${label}`;
  const responder = await smsResponder(b.stack.orm, b.ws);
  const svc = await pagingService(b.stack.orm, b.ws, { name: `scaling ${label}`, ingestBaseUrl: b.stack.ingestUrl, steps: [responder], delays: [60] });
  const start = await b.drain(phase);
  b.say(`${label}: new incidents paging by SMS at ${SCALING_RATE}/s for ${SCALING_S} s`);
  const { run, start: atStart } = await p.openIncidents(svc.url, b.prefix(`paging-scaling-${workers}`), {
    rate: SCALING_RATE,
    durationS: SCALING_S,
    maxInFlight: 64,
  });
  const arrived = await p.waitForSms(responder.phone, run.answered.length, 'the first SMS');
  const atEnd = await p.mark();
  p.cpu(`paging ${SCALING_RATE}/s offered, ${label}`, atStart, atEnd, run.cpuMs);
  const { incidents, smsAt } = await firstSmsByTitle(p, svc.sourceId, responder.phone);
  const times = [...smsAt.values()].sort((x, y) => x - y);
  const from = run.first2xxAt + WARMUP_MS;
  const last = times[times.length - 1] ?? NaN;
  const sustained = perS(times.filter((t) => t >= from).length, last - from);
  const cpu = b.stack.components.diff(atStart.components, atEnd.components);
  const h = meanCounts([
    ...(
      await fetchHistories(
        b.stack.temporal,
        incidents.map((i) => i.id),
      )
    ).values(),
  ]);
  (b.out.perUnit ??= []).push({
    key: `paging_scaling_${workers}w`,
    label: `${SCALING_RATE}/s, ${label}`,
    unit: PAGING_UNIT,
    units: smsAt.size,
    ms: perUnit(cpu, smsAt.size),
    counts: [
      ['history events', round(h.events, 1)],
      ['workflow tasks', round(h.workflowTasks, 2)],
      ['local activities', round(h.localActivities, 2)],
      ['remote activities', round(h.activities, 2)],
    ],
  });
  (b.out.componentCores ??= []).push({ key: `paging_scaling_${workers}w`, label: `${SCALING_RATE}/s, ${label}`, cores: inCores(cpu) });
  b.phase(phase, {
    offered_per_s: SCALING_RATE,
    seconds: SCALING_S,
    statuses: run.statuses,
    incidents: incidents.length,
    sms: smsAt.size,
    sms_wait_complete: arrived.complete,
    sustained_first_sms_per_s: round(sustained, 2),
    cpu_seconds: cpu.seconds,
  });
  b.out.notes.push(
    `Sustained paging rate, ${label} (${start}): ${Math.round(SCALING_RATE * SCALING_S)} first-time events paced at ${SCALING_RATE}/s; ${run.answered.length} accepted, ${smsAt.size} first SMS; ` +
      `sustained = first SMS arriving from ${WARMUP_MS / 1000} s after the first 202 to the last one, ÷ that time: ${round(sustained, 1)}/s.`,
  );
  return { run: { workers, sustained, sms: smsAt.size, answered: run.answered.length, cpu }, incidentIds: incidents.map((i) => i.id) };
}

/** CPU ms per incident of the rows whose name starts with `prefix` (one worker's), summed. */
const rowsOf = (r: ScalingRun, test: (name: string) => boolean) => r.cpu.ms.filter(([name]) => test(name)).reduce((s, [, ms]) => s + ms, 0) / r.sms;

function report(p: PagingBench, runs: ScalingRun[]): void {
  const { b } = p;
  const one = runs[0];
  const many = runs[1];
  for (const r of runs) {
    b.out.rates.push({
      key: `paging_sustained_${r.workers}w_per_s`,
      label: `first SMS sustained, ${r.workers} worker${r.workers === 1 ? '' : 's'}, ${SCALING_RATE}/s offered`,
      value: r.sustained,
      unit: 'incidents/s',
      detail: `${r.sms} SMS of ${r.answered} accepted; CPU ${round(totalMs(r.cpu) / 1000 / r.cpu.seconds, 2)} cores over ${r.cpu.seconds} s`,
    });
  }
  if (many)
    b.out.rates.push({
      key: 'paging_sustained_ratio',
      label: `sustained rate, ${many.workers} workers ÷ 1`,
      value: many.sustained / one.sustained,
      unit: '×',
      target: { min: 1.6 },
      detail: `${round(many.sustained, 1)} ÷ ${round(one.sustained, 1)} incidents/s; judged where CPU is not the limit (see the note)`,
    });
  // Busy fraction: a thread's CPU-seconds per second (at most 1); a worker's is its main thread's and its workflow thread's.
  const busy = (r: ScalingRun) =>
    r.cpu.ms
      .filter(([name]) => /^worker-\d+ (main thread|workflow threads)/.test(name) || name === 'relay' || name.startsWith('api-'))
      .map(([name, ms]) => `${name} ${round(ms / 1000 / r.cpu.seconds, 2)}`)
      .join(', ');
  const workerMs = (r: ScalingRun) => rowsOf(r, (name) => name.startsWith('worker-'));
  const limitOf = (r: ScalingRun, test: (name: string) => boolean) => 1000 / rowsOf(r, test);
  // Single-threaded parts bound the rate at 1,000 ms ÷ their ms per incident, however many cores there are.
  const mainLimit = limitOf(one, (name) => /^worker-\d+ main thread/.test(name));
  const workflowLimit = limitOf(one, (name) => /^worker-\d+ workflow threads/.test(name));
  const apiLimit = limitOf(one, (name) => name.startsWith('api-'));
  const relayLimit = limitOf(one, (name) => name === 'relay');
  const machineMs = totalMs(one.cpu) / one.sms;
  const cores = os.cpus().length;
  const perWorker = Math.min(mainLimit, workflowLimit);
  const predicted = (w: number) => Math.min(w * perWorker, apiLimit, relayLimit);
  b.phase('paging: worker scaling', {
    runs: runs.map((r) => ({
      workers: r.workers,
      sustained_per_s: round(r.sustained, 2),
      worker_cpu_ms_per_incident: round(workerMs(r), 2),
      total_cpu_ms_per_incident: round(totalMs(r.cpu) / r.sms, 2),
      busy_cores: Object.fromEntries(inCores(r.cpu)),
    })),
    single_thread_limits_per_s: {
      worker_main: round(mainLimit, 1),
      worker_workflow: round(workflowLimit, 1),
      api: round(apiLimit, 1),
      relay: round(relayLimit, 1),
    },
    machine_limit_per_s: round((cores * 1000) / machineMs, 1),
  });
  b.out.notes.push(
    `Worker scaling (cluster, ${SCALING_RATE}/s offered): ${runs.map((r) => `${r.workers} worker${r.workers === 1 ? '' : 's'} sustained ${round(r.sustained, 1)} first SMS/s, the workers using ${round(workerMs(r), 1)} CPU ms per incident in all (busy, in cores: ${busy(r)})`).join('; ')}. ` +
      `On ${cores} shared cores the machine is the limit: the whole system takes ${round(machineMs, 1)} CPU ms per incident with one worker, so the cores allow about ${round((cores * 1000) / machineMs, 1)}/s whatever the workers, and adding a worker adds CPU demand, not CPU. ` +
      `Where CPU is not the limit, each worker is bounded by its busiest single-threaded part: its main thread (activities) takes ${round(1000 / mainLimit, 2)} ms per incident (≤ ${round(mainLimit, 1)}/s) and its workflow thread ${round(1000 / workflowLimit, 2)} ms (≤ ${round(workflowLimit, 1)}/s); ` +
      `the shared single-threaded parts bound all workers together: the API process ${round(1000 / apiLimit, 2)} ms (≤ ${round(apiLimit, 1)}/s), the relay ${round(1000 / relayLimit, 2)} ms (≤ ${round(relayLimit, 1)}/s); Temporal and Postgres use several cores and are left to the lead's sizing. ` +
      `Predicted from these, with enough cores: 1 worker ${round(predicted(1), 1)}/s, 2 workers ${round(predicted(2), 1)}/s (×${round(predicted(2) / predicted(1), 2)}), a prediction from the one-worker run's CPU per incident, not a measurement; it assumes per-incident CPU stays flat as load rises and ignores lock and queue waits.`,
  );
}
