import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { Logger } from '../../logger';
import { alertsReceivedSignal, APPLIED_EVENTS_WINDOW, type IncidentWorkflowInput } from '../../../workflows/definitions';
import { incidentStartOptions } from '../incident/workflow-start';
import { batchesPerIncident } from './batches';
import { knexOf } from '../../db/knex';

const DELIVERY_DEADLINE_MS = 10_000;
/**
 * Rows read per pass. Never more than the workflow's applied-event window: a pass whose rows
 * could not be marked delivered is redelivered whole, and must still be ignored whole.
 */
const PASS_ROWS = Math.min(2000, APPLIED_EVENTS_WINDOW);
/** Events per signal: keeps a signal (and the workflow's one write for it) well under size limits. */
const EVENTS_PER_SIGNAL = 500;
/** signalWithStart calls in flight at once, across incidents. */
const MAX_IN_FLIGHT = 16;
/**
 * Repeat signals: an incident signalled recently waits before its next signal, so the events a
 * storm keeps sending it travel together. Every signal costs a workflow task and a projection
 * write whatever it carries, and its activations cost the worker a few milliseconds of CPU (the
 * SDK enters its sandbox with a vm timeout, and Node starts a watchdog thread for each entry:
 * nodejs/node#47739), so a signal per event takes the CPU that acceptance needs. The wait grows
 * with the number of busy incidents so that repeat signals stay near REPEAT_SIGNALS_PER_S in all
 * (10 busy incidents wait 400 ms, 50 wait 2 s), between MIN_WAIT_MS and MAX_WAIT_MS. Measured
 * with a 50-key storm on the embedded stack: at 100 repeat signals/s it accepted 920 events/s, at
 * 25/s 1,330/s. Never held back: an incident's first signal (it starts the workflow and its
 * paging), and an incident with a resolve pending.
 */
const REPEAT_SIGNALS_PER_S = 25;
const MIN_WAIT_MS = 100;
const MAX_WAIT_MS = 2000;

/** How long a recently signalled incident waits, given how many incidents were signalled lately. */
export const repeatWaitMs = (busyIncidents: number): number => Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, (busyIncidents * 1000) / REPEAT_SIGNALS_PER_S));

interface PendingRow {
  id: string;
  event_id: string;
  kind: 'opened' | 'attached' | 'resolved';
  incident_id: string;
  organization_id: string;
  service_id: string | null;
  severity: IncidentWorkflowInput['severity'];
  status: IncidentWorkflowInput['status'];
  last_seq: number;
  title: string;
}

/** What a pass achieved: rows that landed, rows whose signal failed, and the first failure. */
interface PassResult {
  delivered: string[];
  failed: string[];
  error?: unknown;
}

/**
 * Delivers accepted events to their incident workflows with signalWithStart (which also starts
 * the workflow of a new incident), until each lands: one `alertsReceived` signal per incident per
 * pass (more when it has many events), so an alert storm on a few keys costs a few signals, not
 * one per event. At least once: the workflow ignores an event id it has applied. Kicked after
 * every accepted batch, and swept on a timer for what a Temporal outage or a crash left behind.
 */
export class OutboxRelay {
  private running = false;
  private again = false;
  private timer?: NodeJS.Timeout;
  /** When each recently signalled incident was last signalled (performance.now()). */
  private readonly lastSignalled = new Map<string, number>();
  private wakeAt = Infinity;
  private wake?: NodeJS.Timeout;

  constructor(
    private readonly deps: {
      orm: MikroORM;
      temporal: Client;
      taskQueue: string;
      logger: Logger;
      batchSize?: number;
      /**
       * `temporal` shares its connection with a worker polling `taskQueue` in this process: a new
       * incident's workflow starts eagerly, its first workflow task handed straight to that worker.
       */
      eagerStart?: boolean;
    },
  ) {}

  /** Sweeps every `intervalMs` until stopped. */
  start(intervalMs = 1000): void {
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.wake);
    while (this.running) await new Promise((r) => setTimeout(r, 20));
  }

  /**
   * Asks for a drain; concurrent kicks fold into one more pass. `onlyIfDue`: the new rows only
   * add to incidents' pending events (no incident opened or resolved), so while a pass is
   * already booked for waiting incidents, that pass will take them.
   */
  kick(opts: { onlyIfDue?: boolean } = {}): void {
    if (opts.onlyIfDue && this.wakeAt !== Infinity) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.drain()
      .catch((err) => this.deps.logger.warn({ err }, 'outbox relay pass failed; will retry'))
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Delivers pending messages oldest first, a pass at a time; after a failure, retries later. */
  private async drain(): Promise<void> {
    const knex = () => knexOf(this.deps.orm);
    for (;;) {
      const rows = await this.pending(await this.heldBack());
      if (rows.length === 0) return;
      const { delivered, failed, error } = await this.deliverAll(rows);
      if (delivered.length) await knex()('ingest_outbox').whereIn('id', delivered).update({ delivered_at: new Date() });
      if (failed.length) {
        await knex()('ingest_outbox').whereIn('id', failed).increment('attempts', 1).update({ last_error: String(error).slice(0, 500) });
        return; // Temporal is likely away: the timer sweeps again (with batches that waited behind a failed one)
      }
    }
  }

  /**
   * Incidents whose next signal must wait (signalled too recently, and nothing pending for them
   * but attached alerts: an incident with a pending resolve goes now), with a pass booked for
   * when the first of them may go.
   */
  private async heldBack(): Promise<string[]> {
    const now = performance.now();
    for (const [incident, at] of this.lastSignalled) if (now - at >= MAX_WAIT_MS) this.lastSignalled.delete(incident);
    const wait = repeatWaitMs(this.lastSignalled.size);
    const waiting = [...this.lastSignalled].filter(([, at]) => now - at < wait);
    if (waiting.length === 0) return [];
    const urgent = new Set<string>(
      (
        await knexOf(this.deps.orm)('ingest_outbox')
          .distinct('incident_id')
          .whereNull('delivered_at')
          .whereNot('kind', 'attached')
          .whereIn('incident_id', waiting.map(([incident]) => incident))
      ).map((r: { incident_id: string }) => r.incident_id),
    );
    const held = waiting.filter(([incident]) => !urgent.has(incident));
    if (held.length) this.bookPass(Math.min(...held.map(([, at]) => at)) + wait, now);
    return held.map(([incident]) => incident);
  }

  /** Books a pass at `at` (performance.now() time) unless one is booked sooner. */
  private bookPass(at: number, now: number): void {
    if (at >= this.wakeAt) return;
    clearTimeout(this.wake);
    this.wakeAt = at;
    this.wake = setTimeout(() => {
      this.wakeAt = Infinity;
      this.kick();
    }, Math.max(1, at - now));
    this.wake.unref();
  }

  /** Pending rows oldest first, but none of the incidents held back. */
  private async pending(heldBack: string[]): Promise<PendingRow[]> {
    const knex = knexOf(this.deps.orm);
    const query = knex('ingest_outbox as o')
      .join('incidents as i', 'i.id', 'o.incident_id')
      .leftJoin('alerts as a', 'a.id', 'o.event_id')
      .select('o.id', 'o.event_id', 'o.kind', 'o.incident_id', 'i.organization_id', 'i.service_id', 'i.severity', 'i.status', 'i.last_seq', knex.raw('coalesce(a.title, i.title) as title'))
      .whereNull('o.delivered_at')
      .orderBy('o.seq')
      .limit(Math.min(this.deps.batchSize ?? PASS_ROWS, PASS_ROWS));
    if (heldBack.length) query.whereRaw('o.incident_id <> all(?::uuid[])', [`{${heldBack.join(',')}}`]);
    return (await query) as PendingRow[];
  }

  /**
   * Incidents in parallel (at most MAX_IN_FLIGHT calls at once), each incident's batches in
   * order; an incident stops at its first failed batch, so a later one never overtakes it.
   */
  private async deliverAll(rows: PendingRow[]): Promise<PassResult> {
    const result: PassResult = { delivered: [], failed: [] };
    const queue = batchesPerIncident(rows, EVENTS_PER_SIGNAL);
    const lane = async () => {
      for (let batches = queue.shift(); batches; batches = queue.shift()) {
        for (const batch of batches) {
          const ids = batch.map((row) => row.id);
          try {
            await this.deliver(batch);
            result.delivered.push(...ids);
          } catch (err) {
            result.failed.push(...ids);
            result.error ??= err;
            break;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_IN_FLIGHT, queue.length) }, lane));
    return result;
  }

  /** One signal carrying a batch of one incident's events, starting its workflow if need be. */
  private async deliver(batch: PendingRow[]): Promise<void> {
    const [first] = batch;
    const input: IncidentWorkflowInput = {
      incidentId: first.incident_id,
      organizationId: first.organization_id,
      serviceId: first.service_id,
      severity: first.severity,
      status: first.status,
      seq: first.last_seq,
    };
    const events = batch.map((row) => ({ eventId: row.event_id, kind: row.kind, title: row.title }));
    this.lastSignalled.set(first.incident_id, performance.now());
    const { temporal, taskQueue } = this.deps;
    // A deadline, so a call stuck on a half-dead connection cannot wedge the relay.
    await temporal.withDeadline(Date.now() + DELIVERY_DEADLINE_MS, async () => {
      if (!this.deps.eagerStart || first.kind !== 'opened') {
        await temporal.workflow.signalWithStart('incidentWorkflow', { ...incidentStartOptions(taskQueue, input), signal: alertsReceivedSignal, signalArgs: [{ events }] });
        return;
      }
      // A new incident: its opening event is the start itself. Started eagerly, the first workflow
      // task (and its first page) skips the server's task queue. Redelivered after a crash, the
      // start finds the running workflow and changes nothing.
      const opened = { ...input, appliedEventIds: [first.event_id] };
      const handle = await temporal.workflow.start('incidentWorkflow', { ...incidentStartOptions(taskQueue, opened), workflowIdConflictPolicy: 'USE_EXISTING', requestEagerStart: true });
      if (events.length > 1) await handle.signal(alertsReceivedSignal, { events: events.slice(1) });
    });
  }
}
