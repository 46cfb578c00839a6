import { hkdfSync } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { WatchdogConfig } from '../../config';
import { knexOf } from '../../db/knex';
import { shouldPing } from '../../domain/watchdog';
import type { Logger } from '../../logger';
import { outboundClient, type OutboundClient } from '../outbound';
import { lastCanarySuccess } from './canary-state';
import { runCanary, tidyCanary, type CanaryDeps, type CanaryOutcome } from './canary';
import { ensureCanaryWorkspace } from './canary-workspace';

/** The deadline of one ping: a heartbeat monitor answers at once, or it is the one in trouble. */
const PING_DEADLINE_MS = 10_000;
/** How long stopping waits for the canary's tidying. */
const STOP_GRACE_MS = 5_000;

export interface WatchdogDeps {
  orm: MikroORM;
  temporal: Client;
  taskQueue: string;
  autoCloseHours: number;
  /** KLAXON_SECRET (or the generated one): the canary source's URL secret is derived from it. */
  secret: string;
  /** This process's own ingest listener (`http://127.0.0.1:3001`): the canary's alert goes there, not through the network. */
  ingestBaseUrl: string;
  config: WatchdogConfig;
  logger: Logger;
  /** Tests: told every run's outcome and whether it pinged. */
  onRun?: (outcome: CanaryOutcome, pinged: boolean) => void;
}

/** The canary source's URL secret: the same in every process given the same KLAXON_SECRET, stored nowhere. */
export const canarySourceSecret = (secret: string): string =>
  Buffer.from(hkdfSync('sha256', secret, 'klaxon', 'watchdog-canary-source', 32)).toString('base64url');

/**
 * The watchdog (docs/reliability.md): every WATCHDOG_INTERVAL_SECONDS, in every API process, a
 * canary run (only the process that claims the interval runs it: src/services/watchdog/canary-state.ts),
 * then a GET of WATCHDOG_URL only while the last success is younger than two intervals, then the
 * canary's incidents tidied. Anything failing (Postgres, Temporal, the worker, the monitor) is
 * logged and the next interval tries again: no success, no ping, and the outside monitor notices.
 */
export class Watchdog {
  private timer?: NodeJS.Timeout;
  private running: Promise<void> = Promise.resolve();
  /** The last passing run's tidying, while it lasts: one at a time. */
  private tidying?: Promise<void>;
  private stopped = false;
  private canary?: CanaryDeps;
  private readonly http: OutboundClient;
  private readonly monitor: OutboundClient;

  constructor(private readonly deps: WatchdogDeps) {
    // Both are the operator's own addresses (`fixed`: metadata endpoints refused, nothing else).
    this.http = outboundClient({ target: 'fixed', keepAlive: true });
    this.monitor = outboundClient({ target: 'fixed', deadlineMs: PING_DEADLINE_MS, headers: { 'User-Agent': 'Klaxon-Watchdog' } });
  }

  start(): void {
    this.schedule(0);
  }

  /** Stops the loop; a run in progress ends at its next look (it never pings after this). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    // A tidying stuck on a workflow Update is not waited out: the next start carries on with it.
    if (this.tidying) await Promise.race([this.tidying, new Promise((r) => setTimeout(r, STOP_GRACE_MS).unref())]);
    this.http.close();
    this.monitor.close();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const started = Date.now();
      this.running = this.tick().finally(() => this.schedule(Math.max(0, this.deps.config.intervalSeconds * 1000 - (Date.now() - started))));
    }, delayMs);
    this.timer.unref();
  }

  /** One interval: the run, the ping decision, the tidying; each step's failure is logged, never thrown. */
  async tick(): Promise<void> {
    const { logger, config } = this.deps;
    let outcome: CanaryOutcome;
    try {
      outcome = await runCanary(await this.canaryDeps(), config.intervalSeconds, () => this.stopped);
    } catch (err) {
      outcome = { result: 'failed', reason: (err as Error).message };
    }
    if (outcome.result === 'skipped' || this.stopped) return;
    if (outcome.result === 'failed')
      logger.warn({ reason: outcome.reason }, 'watchdog canary failed: no heartbeat unless an earlier run passed within two intervals');
    const pinged = await this.pingIfPassing().catch((err) => {
      logger.warn({ err }, 'watchdog heartbeat not sent');
      return false;
    });
    this.deps.onRun?.(outcome, pinged);
    // Leftovers of failed runs only once the path works again. Not awaited: closing goes through the
    // workflows (up to 15 s an Update when a worker just went away), and the next run must not wait on it.
    if (outcome.result === 'passed' && this.canary && !this.tidying) {
      const canary = this.canary;
      this.tidying = tidyCanary(canary)
        .catch((err) => logger.warn({ err }, 'watchdog canary incidents not tidied; the next run tries again'))
        .then(() => {
          this.tidying = undefined;
        });
    }
  }

  /** GETs WATCHDOG_URL when the last canary success is younger than two intervals (by Postgres' clock). */
  private async pingIfPassing(): Promise<boolean> {
    const last = await lastCanarySuccess(knexOf(this.deps.orm));
    if (!shouldPing(last?.ageMs ?? null, this.deps.config.intervalSeconds)) return false;
    // The URL is a capability: errors from the bounded client never carry it, and neither does this log.
    const answer = await this.monitor.request(this.deps.config.url, { method: 'GET' });
    if (answer.status >= 300) throw new Error(`the heartbeat monitor answered ${answer.status}`);
    return true;
  }

  /** The canary's workspace, set up on the first run that reaches Postgres. */
  private async canaryDeps(): Promise<CanaryDeps> {
    if (this.canary) return this.canary;
    const secret = canarySourceSecret(this.deps.secret);
    const workspace = await ensureCanaryWorkspace(this.deps.orm, secret);
    const { orm, temporal, taskQueue, autoCloseHours } = this.deps;
    this.canary = {
      orm,
      workspace,
      incidents: { orm, temporal, taskQueue, autoCloseHours },
      ingest: { baseUrl: this.deps.ingestBaseUrl, secret },
      http: this.http,
    };
    return this.canary;
  }
}
