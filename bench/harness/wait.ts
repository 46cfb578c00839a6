import { performance } from 'node:perf_hooks';

/** Give up waiting once nothing has moved for this long (a stuck relay or worker). */
const STALL_MS = 30_000;
const POLL_MS = 100;

/** How a wait ended: how long it took and whether it got everything it waited for. */
export interface Waited<T> {
  value: T;
  ms: number;
  complete: boolean;
}

/**
 * Polls `read` until `done`, or until `progress` has not changed for STALL_MS. `onSlow` hears
 * the value every 10 s, so a long catch-up shows it is alive.
 */
export async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, progress: (v: T) => number, onSlow?: (v: T) => void): Promise<Waited<T>> {
  const started = performance.now();
  let value = await read();
  let last = progress(value);
  let movedAt = started;
  let toldAt = started;
  while (!done(value)) {
    const now = performance.now();
    if (now - movedAt > STALL_MS) return { value, ms: now - started, complete: false };
    if (onSlow && now - toldAt > 10_000) {
      onSlow(value);
      toldAt = now;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
    value = await read();
    if (progress(value) !== last) {
      last = progress(value);
      movedAt = performance.now();
    }
  }
  return { value, ms: performance.now() - started, complete: true };
}
