import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import type { Logger } from '../../logger';
import { PassLoop } from '../relay/pass-loop';
import { claimDue, type DeliveryQueue, type DueDelivery } from './delivery-queue';

/** How a consumer's part of the queue is drained: its consumer key, how many rows at once, how long a claim holds. */
export interface QueueSettings {
  /** What the logs call it ("Microsoft Teams delivery"). */
  name: string;
  orm: MikroORM;
  logger: Logger;
  queue: DeliveryQueue;
  /** Deliveries claimed and attempted at once. */
  claimRows: number;
  /** Longer than an attempt can take: a live process never loses its lease. */
  leaseMs: number;
}

/** Events taken from the feed per pass. */
const FAN_OUT_EVENTS = 500;
const SWEEP_MS = 250;

/**
 * A consumer of the incident-event feed with a delivery queue of its own (docs/integrations.md),
 * run in every API process: each pass moves new feed events into its queue (`fanOut`), then
 * claims what is due and attempts it (`attempt`), until a pass finds less than a full batch. A
 * PassLoop sweeps on an interval, folds kicks, stops cleanly. Outgoing webhooks, Slack messages
 * and Teams cards differ only in those two steps.
 */
export abstract class FeedQueueConsumer {
  private readonly loop: PassLoop;

  protected constructor(private readonly settings: QueueSettings) {
    this.loop = new PassLoop(() => this.drain(), settings.logger, settings.name);
  }

  start(intervalMs = SWEEP_MS): void {
    this.loop.start(intervalMs);
  }

  kick(): void {
    this.loop.kick();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Moves up to `limit` new feed events into the queue; returns how many events it took. */
  protected abstract fanOut(trx: Knex.Transaction, limit: number): Promise<number>;

  /** One attempt of one due delivery, and what follows from it. */
  protected abstract attempt(row: DueDelivery): Promise<void>;

  private async drain(): Promise<void> {
    const { orm, queue, claimRows, leaseMs } = this.settings;
    const knex = knexOf(orm);
    for (;;) {
      const taken = await knex.transaction((trx) => this.fanOut(trx, FAN_OUT_EVENTS));
      const due = await claimDue(knex, queue, { limit: claimRows, leaseMs });
      await Promise.all(due.map((row) => this.attempt(row)));
      if (taken < FAN_OUT_EVENTS && due.length < claimRows) return;
    }
  }
}
