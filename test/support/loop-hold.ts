/**
 * How long this process's event loop was held, telling a loop that was busy apart from a process
 * the machine did not run. A ticker every 10 ms notes each late tick's wall-clock gap and the
 * process's CPU time over it: a loop held by work burns CPU for the whole gap, while a process
 * starved by a loaded machine (two cores shared by several test files) burns almost none. A gap
 * counts for the CPU it burned, at most its length; CPU of other threads (GC helpers, the
 * thread pool) counts too, so the figure errs high, never low.
 */
export interface LoopHold {
  /** The worst gap's hold, in ms: its CPU time (bounded by its length) past the tick's interval. */
  worstMs: number;
  /** The worst gap's wall-clock length, in ms, whatever held it (for messages). */
  worstGapMs: number;
}

const TICK_MS = 10;

/** Runs `run` while measuring how long the event loop was held (see above). */
export async function measureLoopHold<T>(run: () => Promise<T>): Promise<{ result: T } & LoopHold> {
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let worstMs = 0;
  let worstGapMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const gapMs = now - last;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    worstMs = Math.max(worstMs, Math.min(gapMs, cpuMs) - TICK_MS);
    worstGapMs = Math.max(worstGapMs, gapMs - TICK_MS);
    last = now;
    lastCpu = process.cpuUsage();
  }, TICK_MS);
  try {
    const result = await run();
    return { result, worstMs: Math.max(0, worstMs), worstGapMs: Math.max(0, worstGapMs) };
  } finally {
    clearInterval(ticker);
  }
}
