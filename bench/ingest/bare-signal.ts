import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Client } from '@temporalio/client';
import { incidentStartOptions } from '../../src/services/incident';
import { alertReceivedSignal, incidentWorkflowId, type IncidentWorkflowInput } from '../../src/contracts/workflows';
import { cpuSnapshot, type CpuSnapshot } from '../harness/cpu';
import { accepted, closedLoop, type RunResult } from '../harness/load';
import { perS, round } from '../harness/numbers';
import { waitFor } from '../harness/wait';
import { BARE_S, type IngestBench, INGEST_CONCURRENCY, RATIO_TARGET, STORM_KEYS } from './bench';

/** Where the bare calls go: the stack's Temporal client and task queue, a workspace to label them with. */
export interface BareTarget {
  temporal: Client;
  taskQueue: string;
  organizationId: string;
}

/**
 * ACKNOWLEDGED: a TRIGGERED run would look up its escalation, find no incident row behind it and
 * retry that lookup until terminated, so the floor would measure retries, not a start.
 */
const inputFor = (organizationId: string, incidentId: string): IncidentWorkflowInput => ({
  incidentId,
  organizationId,
  serviceId: null,
  severity: 'LOW',
  status: 'ACKNOWLEDGED',
  seq: 0,
});

/** They have no incident behind them: do not leave them running on a shared server. */
function terminateAll(target: BareTarget, incidentIds: string[]): Promise<unknown> {
  return Promise.allSettled(incidentIds.map((id) => target.temporal.workflow.getHandle(incidentWorkflowId(id)).terminate('bench finished')));
}

/**
 * One signalWithStart of the real incident workflow with the relay's start options and the
 * one-event alertReceived signal, carrying a fresh event of kind `opened`: the workflow records the id and does nothing else (no activity,
 * no Postgres), so this is the cheapest real signal.
 */
function signalWithStart(target: BareTarget, incidentId: string): Promise<unknown> {
  return target.temporal.workflow.signalWithStart('incidentWorkflow', {
    ...incidentStartOptions(target.taskQueue, inputFor(target.organizationId, incidentId)),
    signal: alertReceivedSignal,
    signalArgs: [{ eventId: randomUUID(), kind: 'opened', title: 'bare' }],
  });
}

/** Waits until none of the workflows has a workflow task scheduled or running: the worker has caught up. */
async function workflowsIdle(target: BareTarget, incidentIds: string[]) {
  const busy = async () => {
    const pending = await Promise.all(
      incidentIds.map(async (id) => {
        const { raw } = await target.temporal.workflow.getHandle(incidentWorkflowId(id)).describe();
        return raw.pendingWorkflowTask ? 1 : 0;
      }),
    );
    return pending.reduce<number>((a, b) => a + b, 0);
  };
  return waitFor(
    busy,
    (n) => n === 0,
    (n) => n,
  );
}

/** Bare signals to `workflows` already-running workflows, round robin; then how long the worker took to catch up. */
export async function benchBareSignalsToRunning(
  target: BareTarget,
  workflows: number,
  concurrency: number,
  durationS: number,
): Promise<{ run: RunResult; catchUpMs: number; caughtUp: boolean }> {
  const ids = Array.from({ length: workflows }, () => randomUUID());
  await Promise.all(ids.map((id) => signalWithStart(target, id)));
  await workflowsIdle(target, ids);
  let next = 0;
  const run = await closedLoop({ concurrency, durationMs: durationS * 1000 }, async () => {
    await signalWithStart(target, ids[next++ % ids.length]);
  });
  const t0 = performance.now();
  const idle = await workflowsIdle(target, ids);
  const catchUpMs = performance.now() - t0;
  await terminateAll(target, ids);
  return { run, catchUpMs, caughtUp: idle.complete };
}

/** Bare signalWithStart with a new workflow ID per call: each call starts a workflow. `started` collects their incident ids. */
export function benchBareSignalWithStartNew(target: BareTarget, concurrency: number, durationS: number, started: string[] = []): Promise<RunResult> {
  return closedLoop({ concurrency, durationMs: durationS * 1000 }, async () => {
    const id = randomUUID();
    started.push(id);
    await signalWithStart(target, id);
  });
}

/** (e) Bare signalWithStart on the same server and task queue, in the shapes of (a) and (b); then the ratios. */
export async function bareSignalsPhase(b: IngestBench, stormApplied: number, newDelivered: number): Promise<void> {
  const phase = 'bare signalWithStart';
  const start = await b.drain(phase);
  const target = { temporal: b.stack.temporal, taskQueue: b.stack.config.temporal.taskQueue, organizationId: b.ws.organizationId };
  b.say(`Bare signalWithStart to ${STORM_KEYS} running workflows at ${INGEST_CONCURRENCY} concurrent calls for ${BARE_S} s`);
  const c0 = cpuSnapshot();
  const running = await benchBareSignalsToRunning(target, STORM_KEYS, INGEST_CONCURRENCY, BARE_S);
  const c1 = cpuSnapshot();
  b.say(`Bare signalWithStart, a new workflow per call, at ${INGEST_CONCURRENCY} concurrent calls for ${BARE_S} s`);
  const freshStartedAt = Date.now();
  const freshIds: string[] = [];
  const fresh = await benchBareSignalWithStartNew(target, INGEST_CONCURRENCY, BARE_S, freshIds);
  const c2 = cpuSnapshot();
  const freshWorker = await b.workerCatchUp('after the bare new-workflow calls');
  const freshRanMs = Date.now() - freshStartedAt;
  const c3 = cpuSnapshot();
  await terminateAll(target, freshIds);
  // The floor under a new incident: a start and its first workflow task, nothing of ours.
  const perWorkflow = (ms: (c: CpuSnapshot) => number) => (ms(c3) - ms(c1)) / Math.max(1, freshIds.length);
  const runningRate = perS(accepted(running.run), running.run.durationS * 1000);
  const freshRate = perS(accepted(fresh), fresh.durationS * 1000);
  b.out.figures.push(
    {
      key: `bare_signal_running_c${INGEST_CONCURRENCY}_ms`,
      label: `bare signalWithStart, ${STORM_KEYS} running wf, c=${INGEST_CONCURRENCY}`,
      run: running.run,
    },
    { key: `bare_signal_with_start_new_c${INGEST_CONCURRENCY}_ms`, label: `bare signalWithStart, new wf, c=${INGEST_CONCURRENCY}`, run: fresh },
  );
  b.out.rates.push(
    {
      key: 'bare_signal_running_per_s',
      label: `bare: signals to ${STORM_KEYS} running workflows`,
      value: runningRate,
      unit: 'signals/s',
      detail: `${accepted(running.run)} calls in ${round(running.run.durationS, 2)} s`,
    },
    {
      key: 'bare_signal_with_start_new_per_s',
      label: 'bare: signalWithStart, new workflow each',
      value: freshRate,
      unit: 'signals/s',
      detail: `${accepted(fresh)} calls in ${round(fresh.durationS, 2)} s`,
    },
    {
      key: 'bare_new_first_task_per_s',
      label: 'bare: new workflows ran their first task',
      value: perS(accepted(fresh), freshRanMs),
      unit: 'signals/s',
      detail: `first call → task queue empty ${round(freshRanMs / 1000, 2)} s (approx.)`,
    },
    {
      key: 'bare_new_workflow_cpu_ms',
      label: 'bare: CPU per new workflow (start + first task)',
      value: perWorkflow((c) => c.selfMs + c.temporalMs + c.postgresMs),
      unit: 'ms',
      detail: `Temporal ${round(
        perWorkflow((c) => c.temporalMs),
        2,
      )}, this process ${round(
        perWorkflow((c) => c.selfMs),
        2,
      )}, Postgres ${round(
        perWorkflow((c) => c.postgresMs),
        2,
      )} ms over ${freshIds.length} workflows, calls + catch-up`,
    },
    {
      key: 'ratio_storm_applied_to_bare',
      label: 'storm applied ÷ bare to running',
      value: stormApplied / runningRate,
      unit: '×',
      target: { min: RATIO_TARGET },
      detail: `${round(stormApplied)} ÷ ${round(runningRate)}`,
    },
    {
      key: 'ratio_new_incident_delivered_to_bare',
      label: 'new incidents delivered ÷ bare new',
      value: newDelivered / freshRate,
      unit: '×',
      target: { min: RATIO_TARGET },
      detail: `${round(newDelivered)} ÷ ${round(freshRate)}`,
    },
  );
  b.phase(phase, {
    running_calls: accepted(running.run),
    running_failures: running.run.failures,
    running_worker_catch_up_s: round(running.catchUpMs / 1000, 2),
    running_worker_caught_up: running.caughtUp,
    new_calls: accepted(fresh),
    new_failures: fresh.failures,
    new_first_call_to_task_queue_empty_s: round(freshRanMs / 1000, 2),
    new_task_queue_drained: freshWorker.complete,
  });
  b.out.notes.push(
    `Bare signalWithStart (${start}): the Temporal client of the stack, on its server and task queue, no HTTP and no Postgres, ${INGEST_CONCURRENCY} concurrent calls in a closed loop for ${BARE_S} s each; ` +
      `each call starts or signals incidentWorkflow with the relay's start options (incidentStartOptions) and the one-event alertReceived signal carrying a fresh event id of kind \`opened\`, which the workflow records and does nothing else with (the start input says ACKNOWLEDGED, so nothing is paged and nothing read): the cheapest real signal. ` +
      `(i) round robin over ${STORM_KEYS} workflows started just before (the storm's shape); the worker finished their workflow tasks ${round(running.catchUpMs / 1000, 2)} s after the last call${running.caughtUp ? '' : ' (or stopped progressing)'}, and they were then terminated. (ii) a new workflow ID per call (the new-incident shape); the worker had run their first tasks ${round(freshRanMs / 1000, 2)} s after the first call (task queue backlog, approximate), and they were then terminated; their CPU per workflow (Temporal, this process, Postgres, over the calls and the catch-up) is the floor under a new incident. ` +
      `The bare rate is calls answered per second (the signal is in the workflow's history), the worker applies them behind; the ratios divide our storm applied rate by (i) and our new-incident delivered rate by (ii), target ≥ ${RATIO_TARGET}. ` +
      "A storm ratio above 1 comes from carrying several events per signal (the relay coalescing an incident's pending events into one call), not from a faster signal: the bare run sends one event per call. Our storm and new-incident rates read only HTTP answers and Postgres (Temporal's task-queue count only decides when a phase may start), so they measure whichever signal the relay sends. The relay's batching and concurrency are its own, whatever they are, against the bare run's 16 calls in flight: a new-incident ratio above 1 comes from the relay running more calls at once. The bare runs and our phases are minutes apart on a shared machine: compare their rows of the CPU table (rest of the machine) before trusting a ratio.",
  );
  b.cpu('bare (i): running workflows, + catch-up', c0, c1);
  b.cpu('bare (ii): new workflow per call', c1, c2);
  b.cpu('bare (ii): worker catch-up after the calls', c2, c3);
}
