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

/** Which incidents were signalled recently, and how long each must still wait (performance.now() time). */
export class RepeatPacer {
  /** When each recently signalled incident was last signalled. */
  private readonly lastSignalled = new Map<string, number>();

  /** Notes a signal to the incident, now. */
  signalled(incidentId: string): void {
    this.lastSignalled.set(incidentId, performance.now());
  }

  /** Incidents still inside their wait, with when each was signalled; forgets the ones past any wait. */
  waiting(now = performance.now()): { wait: number; incidents: Array<[string, number]> } {
    for (const [incident, at] of this.lastSignalled) if (now - at >= MAX_WAIT_MS) this.lastSignalled.delete(incident);
    const wait = repeatWaitMs(this.lastSignalled.size);
    return { wait, incidents: [...this.lastSignalled].filter(([, at]) => now - at < wait) };
  }
}
