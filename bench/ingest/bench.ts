import os from 'node:os';
import { createService } from '../../src/services/workspace';
import { createSource } from '../../src/services/ingest';
import { cpuSplit, type CpuSnapshot } from '../harness/cpu';
import type { RequestSpec } from '../harness/load';
import { JSON_HEADERS, measuredLoad } from '../harness/measured-load';
import { round } from '../harness/numbers';
import type { Findings } from '../harness/report';
import type { BenchStack, Say } from '../harness/stack';
import { drainTaskQueue, taskQueueBacklog, type Backlog } from '../harness/task-queue';
import type { Waited } from '../harness/wait';
import type { BenchWorkspace } from '../harness/workspace';
import type { IngestProbe } from './probe';

/** Concurrency of every closed-loop ingestion phase and of the bare signalWithStart runs. */
export const INGEST_CONCURRENCY = 16;
/** Dedup keys the storm spreads over: its events attach to this many open incidents. */
export const STORM_KEYS = 50;
export const STORM_S = 10;
export const NEW_INCIDENTS_S = 5;
export const REPLAYS_S = 5;
/** 202 → applied is judged at this steady rate, over this many open incidents. */
export const STEADY_RATE = 100;
export const STEADY_S = 8;
export const STEADY_INCIDENTS = 10;
export const BARE_S = 5;
/** The share of bare signalWithStart's rate our own path must reach. */
export const RATIO_TARGET = 0.8;

/** A service and source of a phase's own, so each phase's rows can be told apart in Postgres. */
export interface PhaseSource {
  serviceId: string;
  sourceId: string;
  url: string;
}

/** What the phases share: where to send, where to look, and the findings they add to. */
export class IngestBench {
  readonly out: Findings & { phases: Record<string, Record<string, unknown>>; cpu: NonNullable<Findings['cpu']> } = {
    figures: [],
    rates: [],
    notes: [],
    cpu: [],
    phases: {},
  };
  private readonly run = `${Date.now().toString(36)}`;

  constructor(
    readonly stack: BenchStack,
    readonly ws: BenchWorkspace,
    readonly probe: IngestProbe,
    readonly say: Say,
  ) {}

  async source(name: string): Promise<PhaseSource> {
    const { orm, ingestUrl } = this.stack;
    const service = await createService(orm, { organizationId: this.ws.organizationId, teamId: this.ws.teamId, name: `bench ingestion: ${name}` });
    const source = await createSource(orm, { organizationId: this.ws.organizationId, serviceId: service.id, name: `bench ${name}`, ingestBaseUrl: ingestUrl });
    return { serviceId: service.id, sourceId: source.id, url: source.ingest_url };
  }

  /** Alert titles unique to this bench run and phase. */
  prefix(phase: string): string {
    return `bench-${this.run}-${phase}`;
  }

  /**
   * Waits until the outbox holds nothing undelivered, then until the worker has taken every task
   * waiting on the task queue (delivered is not run: a new incident's workflow exists once the
   * relay's call returns, its first task may still be queued), and records how long each took.
   */
  async drain(phase: string): Promise<string> {
    const pending = await this.probe.undelivered();
    const d = await this.probe.drainOutbox((left) => this.say(`  waiting for the outbox to drain before ${phase}: ${left} undelivered`));
    const { temporal, config } = this.stack;
    const queued = await taskQueueBacklog(temporal, config.temporal.namespace, config.temporal.taskQueue);
    const q = await this.workerCatchUp(`before ${phase}`);
    this.phase(phase, {
      outbox_undelivered_at_start: pending,
      outbox_drain_s: round(d.ms / 1000, 2),
      outbox_drained: d.complete,
      task_queue_backlog_after_outbox: queued,
      task_queue_drain_s: round(q.ms / 1000, 2),
      task_queue_drained: q.complete,
      load_avg_1m: round(os.loadavg()[0], 2),
    });
    if (!d.complete)
      this.out.notes.push(
        `The outbox did not drain before ${phase}: ${d.left} messages still undelivered after 30 s without progress; ${phase} ran on top of that backlog.`,
      );
    if (!q.complete)
      this.out.notes.push(
        `The task queue did not drain before ${phase}: ${q.value.workflowTasks} workflow and ${q.value.activityTasks} activity tasks still queued after 30 s without progress.`,
      );
    const outbox = pending === 0 ? 'the outbox was empty' : `the outbox had drained (${pending} pending, ${round(d.ms / 1000, 2)} s)`;
    const backlog = queued.workflowTasks + queued.activityTasks;
    const worker =
      backlog === 0
        ? 'the task queue was empty'
        : `the worker had taken the ${queued.workflowTasks} workflow + ${queued.activityTasks} activity tasks then queued (${round(q.ms / 1000, 2)} s)`;
    return `started once ${outbox} and ${worker}`;
  }

  /** Waits until the worker has taken every task queued on the stack's task queue. */
  workerCatchUp(phase: string): Promise<Waited<Backlog>> {
    const { temporal, config } = this.stack;
    return drainTaskQueue(temporal, config.temporal.namespace, config.temporal.taskQueue, (left) =>
      this.say(`  waiting for the worker (${phase}): ${left.workflowTasks} workflow and ${left.activityTasks} activity tasks queued`),
    );
  }

  phase(name: string, data: Record<string, unknown>): void {
    this.out.phases[name] = { ...this.out.phases[name], ...data };
  }

  cpu(label: string, from: CpuSnapshot, to: CpuSnapshot, loadGeneratorMs = 0): void {
    this.out.cpu.push({ label, split: cpuSplit(from, to, loadGeneratorMs) });
  }
}

/** POSTs closed loop at INGEST_CONCURRENCY for `durationS`. */
export function closedLoad(src: PhaseSource, request: RequestSpec, durationS: number, headers = JSON_HEADERS) {
  return measuredLoad({ url: src.url, method: 'POST', headers, request, shape: { kind: 'closed', concurrency: INGEST_CONCURRENCY, durationS } });
}
