import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger';
import { APPLIED_EVENTS_WINDOW } from '../../contracts/workflows';
import { knexOf } from '../../db/knex';
import { batchesPerIncident } from './batches';
import { claimRows } from './claim';
import { deliverBatch, type DeliveryTarget } from './delivery';
import { isTemporalOutage } from './outage';
import { markDelivered, recordFailures, type PendingRow } from './outbox-rows';
import { RepeatPacer } from './pacing';
import { afterFailedBatch } from './retry-policy';

/**
 * Rows read per pass. Never more than the workflow's applied-event window: a pass whose rows
 * could not be marked delivered is redelivered whole, and must still be ignored whole.
 */
const PASS_ROWS = Math.min(2000, APPLIED_EVENTS_WINDOW);
/** Events per signal: keeps a signal (and the workflow's one write for it) well under size limits. */
const EVENTS_PER_SIGNAL = 500;
/** signalWithStart calls in flight at once, across incidents. */
const MAX_IN_FLIGHT = 16;

/** What a pass's signals achieved: rows that landed, and each failed batch with its error. */
interface Deliveries {
  delivered: string[];
  failed: Array<{ rows: PendingRow[]; error: unknown }>;
}

/** What a committed pass leaves the drain: whether its claim was full (more may wait), and whether Temporal seemed away. */
interface PassOutcome {
  full: boolean;
  outage: boolean;
}

/**
 * Delivers accepted events to their incident workflows with signalWithStart (which also starts
 * the workflow of a new incident), until each lands: one `alertsReceived` signal per incident per
 * pass (more when it has many events), so an alert storm on a few keys costs a few signals, not
 * one per event. At least once: the workflow ignores an event id it has applied. Kicked after
 * every accepted batch, and swept on a timer for what a Temporal outage or a crash left behind.
 *
 * Any number of relays (API processes) may share the database: a pass claims its rows in a
 * transaction it holds while it signals (claim.ts), so each row goes out from one relay; a crash
 * mid-pass rolls back and the rows go again. A message that fails for another reason than an
 * outage backs off and, after a few failures, is parked (retry-policy.ts).
 */
export class OutboxRelay {
  private running = false;
  private again = false;
  /** Set by stop(): no pass starts, and none is booked, after it (a pass in flight would book one). */
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private readonly pacer = new RepeatPacer();
  private wakeAt = Infinity;
  private wake?: NodeJS.Timeout;

  constructor(
    private readonly deps: DeliveryTarget & {
      orm: MikroORM;
      logger: Logger;
      batchSize?: number;
    },
  ) {}

  /** Sweeps every `intervalMs` until stopped. */
  start(intervalMs = 1000): void {
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.wake);
    while (this.running) await new Promise((r) => setTimeout(r, 20));
    clearTimeout(this.wake);
  }

  /**
   * Asks for a drain; concurrent kicks fold into one more pass. `onlyIfDue`: the new rows only
   * add to incidents' pending events (no incident opened or resolved), so while a pass is
   * already booked for waiting incidents, that pass will take them.
   */
  kick(opts: { onlyIfDue?: boolean } = {}): void {
    if (this.stopped) return;
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

  /**
   * Delivers pending messages oldest first, a pass at a time; after an outage, retries later. A
   * pass whose claim was not full took every row that could go: no empty pass follows it. Rows
   * committed meanwhile kicked the relay (another pass follows this drain), and the timer sweeps
   * up what others left (another relay's locked rows, back-offs).
   */
  private async drain(): Promise<void> {
    for (;;) {
      const { full, outage } = await this.pass(this.heldBack());
      // Temporal is likely away: the timer sweeps again. Rows that failed otherwise back off,
      // so the next pass does not take them again.
      if (!full || outage) return;
    }
  }

  /**
   * One pass, one transaction: claim rows, signal them, record what landed and what failed,
   * commit. New dead letters are reported once, after the commit that parked them.
   */
  private async pass(heldBack: string[]): Promise<PassOutcome> {
    const limit = Math.min(this.deps.batchSize ?? PASS_ROWS, PASS_ROWS);
    const { full, failed } = await knexOf(this.deps.orm).transaction(async (trx) => {
      const { rows, full } = await claimRows(trx, limit, heldBack);
      if (rows.length === 0) return { full: false, failed: [] };
      const { delivered, failed } = await this.deliverAll(rows);
      if (delivered.length) await markDelivered(trx, delivered);
      const failedRows = failed.flatMap(({ rows, error }) => afterFailedBatch(rows, error));
      if (failedRows.length) await recordFailures(trx, failedRows);
      return { full, failed: failedRows };
    });
    for (const row of failed) {
      if (row.park)
        this.deps.logger.warn(
          { outbox_id: row.id, incident_id: row.incident_id, kind: row.kind, attempts: row.attempts, error: row.error },
          'outbox message parked after repeated delivery failures; `klaxon outbox retry ID` delivers it again',
        );
    }
    return { full, outage: failed.some((row) => row.outage) };
  }

  /**
   * Incidents whose next signal must wait (signalled too recently), with a pass booked for when
   * the first of them may go. The claim still takes those with anything pending but attached
   * alerts (an incident with a pending resolve goes now): see claimRows.
   */
  private heldBack(): string[] {
    const now = performance.now();
    const { wait, incidents: waiting } = this.pacer.waiting(now);
    if (waiting.length === 0) return [];
    this.bookPass(Math.min(...waiting.map(([, at]) => at)) + wait, now);
    return waiting.map(([incident]) => incident);
  }

  /** Books a pass at `at` (performance.now() time) unless one is booked sooner. */
  private bookPass(at: number, now: number): void {
    if (this.stopped || at >= this.wakeAt) return;
    clearTimeout(this.wake);
    this.wakeAt = at;
    this.wake = setTimeout(
      () => {
        this.wakeAt = Infinity;
        this.kick();
      },
      Math.max(1, at - now),
    );
    this.wake.unref();
  }

  /**
   * Incidents in parallel (at most MAX_IN_FLIGHT calls at once), each incident's batches in
   * order; an incident stops at its first failed batch, so a later one never overtakes it. After
   * MAX_IN_FLIGHT outage failures with no success between them, Temporal is away: no further
   * incident is tried (each call could wait its whole deadline) and the sweep retries later.
   */
  private async deliverAll(rows: PendingRow[]): Promise<Deliveries> {
    const result: Deliveries = { delivered: [], failed: [] };
    const queue = batchesPerIncident(rows, EVENTS_PER_SIGNAL, (row) => row.attempts > 0);
    let outageStreak = 0;
    const lane = async () => {
      while (outageStreak < MAX_IN_FLIGHT) {
        const batches = queue.shift();
        if (!batches) return;
        for (const batch of batches) {
          try {
            await this.deliver(batch);
            result.delivered.push(...batch.map((row) => row.id));
            outageStreak = 0;
          } catch (error) {
            result.failed.push({ rows: batch, error });
            outageStreak = isTemporalOutage(error) ? outageStreak + 1 : 0;
            break;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_IN_FLIGHT, queue.length) }, lane));
    return result;
  }

  /** One batch to its workflow, noted for pacing the incident's next signal. */
  private async deliver(batch: PendingRow[]): Promise<void> {
    this.pacer.signalled(batch[0].incident_id);
    await deliverBatch(this.deps, batch);
  }
}
