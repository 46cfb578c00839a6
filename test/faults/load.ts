/**
 * The senders: a paced stream of Alertmanager events spread over the API processes, each with
 * its own Idempotency-Key, retried as real senders retry (same key, same body, on 5xx, 429, a
 * cut connection or a timeout, with backoff, moving to the next API address) until a 2xx or a
 * long give-up. One key's events go in order, one at a time; what the last accepted one said is
 * the key's state. Every event and how it ended is kept for the accounting.
 */
import { alertmanagerBody, eventTitle } from './payload';
import { afterAccepted, nextPlan, type Action, type KeyState, type Plan } from './traffic';

/** One event as its sender knows it. */
export interface SentEvent {
  /** Order of first sending; one key's events are numbered in the order they were sent. */
  n: number;
  /** When it was first sent and when a 2xx came (ms since the epoch). */
  sentAt: number;
  acceptedAt?: number;
  source: number;
  key: string;
  action: Action;
  kind: Plan['kind'];
  idempotencyKey: string;
  title: string;
  attempts: number;
  outcome: 'pending' | 'accepted' | 'gave_up' | 'refused';
  /** The last HTTP status (or 0 for a connection error / timeout). */
  status?: number;
  /** From the 2xx answer (the first answer, replayed, when it says duplicate). */
  eventId?: string | null;
  incidentId?: string | null;
  duplicate?: boolean;
  lastError?: string;
}

export interface LoadOptions {
  /** Ingestion base URLs, one per API process. */
  apis: string[];
  /** Ingestion URL secret of each source. */
  tokens: string[];
  keys: KeyState[];
  runId: string;
  eventsPerSecond: number;
  random: () => number;
  /** A sender stops retrying one event after this long: a lost send. */
  giveUpMs: number;
  /** Ticks that would put more requests in flight than this are skipped (an outage piles them up). */
  maxInFlight: number;
  say: (line: string) => void;
}

/** Counts of what the senders met on the way. */
export interface LoadTally {
  ticks: number;
  skippedTicks: number;
  attempts: number;
  retries: number;
  byStatus: Record<string, number>;
}

const ATTEMPT_TIMEOUT_MS = 15_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Load {
  readonly events: SentEvent[] = [];
  readonly tally: LoadTally = { ticks: 0, skippedTicks: 0, attempts: 0, retries: 0, byStatus: {} };
  private inFlight = 0;
  private nextApi = 0;

  constructor(private readonly opts: LoadOptions) {}

  /** Sends at `eventsPerSecond` until `done()` says so, then waits for every event to be accepted or given up. */
  async run(done: () => boolean): Promise<void> {
    const interval = 1000 / this.opts.eventsPerSecond;
    const started = Date.now();
    const running = new Set<Promise<void>>();
    let lastSaid = started;
    for (let i = 0; !done(); i++) {
      const wait = started + i * interval - Date.now();
      if (wait > 0) await sleep(wait);
      this.tally.ticks++;
      const plan = this.inFlight < this.opts.maxInFlight ? nextPlan(this.opts.keys, this.opts.random) : null;
      if (!plan) {
        this.tally.skippedTicks++;
        continue;
      }
      const p = this.follow(plan).finally(() => running.delete(p));
      running.add(p);
      if (Date.now() - lastSaid >= 10_000) {
        lastSaid = Date.now();
        this.opts.say(
          `load: ${Math.round((lastSaid - started) / 1000)} s, ${this.events.length} events, ${this.inFlight} in flight, ${this.tally.retries} retries`,
        );
      }
    }
    await Promise.all(running);
  }

  /** A plan's events in order; a key whose event was not accepted is left alone from then on. */
  private async follow(plan: Plan): Promise<void> {
    plan.key.busy = true;
    this.inFlight++;
    try {
      for (const action of plan.actions) {
        const event = await this.send(plan, action);
        if (event.outcome !== 'accepted') {
          plan.key.broken = true;
          return;
        }
        afterAccepted(plan.key, action);
      }
    } finally {
      this.inFlight--;
      plan.key.busy = false;
    }
  }

  private async send(plan: Plan, action: Action): Promise<SentEvent> {
    const n = this.events.length + 1;
    const event: SentEvent = {
      n,
      source: plan.key.source,
      key: plan.key.key,
      action,
      kind: plan.kind,
      idempotencyKey: `${this.opts.runId}-${n}`,
      title: eventTitle(this.opts.runId, n),
      sentAt: Date.now(),
      attempts: 0,
      outcome: 'pending',
    };
    this.events.push(event);
    const body = JSON.stringify(alertmanagerBody({ key: plan.key.key, action, title: event.title, startsAt: new Date().toISOString() }));
    const token = this.opts.tokens[plan.key.source];
    const giveUpAt = Date.now() + this.opts.giveUpMs;
    for (;;) {
      event.attempts++;
      this.tally.attempts++;
      const api = this.opts.apis[this.nextApi++ % this.opts.apis.length];
      const answer = await post(`${api}/${token}`, body, event.idempotencyKey);
      event.status = answer.status;
      this.tally.byStatus[answer.status] = (this.tally.byStatus[answer.status] ?? 0) + 1;
      if (answer.status >= 200 && answer.status < 300) {
        const json = answer.json as { event_id?: string | null; incident_id?: string | null; duplicate?: boolean };
        Object.assign(event, {
          outcome: 'accepted',
          acceptedAt: Date.now(),
          eventId: json.event_id ?? null,
          incidentId: json.incident_id ?? null,
          duplicate: json.duplicate === true,
        });
        return event;
      }
      event.lastError = answer.error;
      const retryable = answer.status === 0 || answer.status === 429 || answer.status >= 500;
      if (!retryable) {
        event.outcome = 'refused';
        return event;
      }
      if (Date.now() >= giveUpAt) {
        event.outcome = 'gave_up';
        return event;
      }
      this.tally.retries++;
      // Backoff with jitter, as senders do: 0.25 s doubling to 4 s.
      await sleep(Math.min(4000, 250 * 2 ** Math.min(event.attempts - 1, 4)) * (0.5 + this.opts.random() / 2));
    }
  }
}

/** One POST; status 0 when no HTTP answer came (refused, cut, timed out). */
async function post(url: string, body: string, idempotencyKey: string): Promise<{ status: number; json?: unknown; error?: string }> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body,
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    const text = await res.text();
    if (!res.ok) return { status: res.status, error: text.slice(0, 300) };
    return { status: res.status, json: JSON.parse(text) as unknown };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { status: 0, error: `${(err as Error).name}: ${cause ?? (err as Error).message}` };
  }
}
