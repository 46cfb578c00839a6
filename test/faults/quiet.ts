/**
 * Waits until the system has caught up after the load: every outbox message delivered, no page
 * in flight, and nothing (incidents, timeline, page rows, SMS at the fake) moving for a while. A
 * system that stops moving with work still pending is stuck, not quiet: the wait ends and the
 * accounting names what is missing. One still moving at the time limit fails the run.
 */
import type { Activity } from './rows';

export interface QuietOptions {
  read: () => Promise<Activity>;
  /** SMS the fake has accepted so far. */
  smsCount: () => number;
  /** Unchanged this long, with nothing pending: quiet. */
  settleMs: number;
  /** Unchanged this long with work pending: stuck. */
  stuckMs: number;
  timeoutMs: number;
  say: (line: string) => void;
}

export interface QuietResult {
  /** quiet: caught up; stuck: nothing moves but work is pending; moving: still busy at the time limit. */
  outcome: 'quiet' | 'stuck' | 'moving';
  waitedS: number;
  last?: Activity;
}

export async function waitForQuiet(o: QuietOptions): Promise<QuietResult> {
  const started = Date.now();
  let last: Activity | undefined;
  let lastKey = '';
  let movedAt = started;
  let saidAt = started;
  for (;;) {
    const now = Date.now();
    let current: Activity | undefined;
    try {
      current = await o.read();
    } catch (err) {
      o.say(`quiet wait: reading Postgres failed (${(err as Error).message}); trying again`);
    }
    if (current) {
      last = current;
      const key = JSON.stringify({ ...current, sms: o.smsCount() });
      if (key !== lastKey) {
        lastKey = key;
        movedAt = now;
      }
      const pending = current.undelivered + current.unapplied + current.pagesPending;
      if (pending === 0 && now - movedAt >= o.settleMs) return { outcome: 'quiet', waitedS: (now - started) / 1000, last };
      if (pending > 0 && now - movedAt >= o.stuckMs) return { outcome: 'stuck', waitedS: (now - started) / 1000, last };
      if (now - saidAt >= 15_000) {
        saidAt = now;
        o.say(
          `waiting for quiet: ${current.undelivered} undelivered, ${current.unapplied} not yet applied, ${current.pagesPending} pages pending, ${current.incidents} incidents, ${o.smsCount()} SMS`,
        );
      }
    }
    if (now - started >= o.timeoutMs) return { outcome: 'moving', waitedS: (now - started) / 1000, last };
    await new Promise((r) => setTimeout(r, 1000));
  }
}
