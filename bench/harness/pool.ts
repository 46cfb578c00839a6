import { TRANSITIONS, type IncidentStatus, type LifecycleOperation } from '../../src/domain/incident-lifecycle';

/** The cycle each incident goes round: every step is a real move, never a no-op or a close. */
const NEXT: Partial<Record<IncidentStatus, LifecycleOperation>> = {
  TRIGGERED: 'acknowledge',
  ACKNOWLEDGED: 'investigate',
  INVESTIGATING: 'resolve',
  RESOLVED: 'reopen',
};

/** An incident waiting in the pool, with the status it is in. */
export interface Idle {
  id: string;
  status: IncidentStatus;
}

/** One incident lent out for one operation. */
export interface Loan {
  id: string;
  operation: LifecycleOperation;
  /** The status the operation must produce. */
  expect: IncidentStatus;
}

/**
 * Incidents waiting for their next lifecycle operation. An incident is lent to one request at a
 * time (no two in-flight updates on one workflow) and returned with the status it answered.
 * First in, first out, so each incident rests while the others are used.
 */
export class IncidentPool {
  private readonly idle: Idle[] = [];
  private readonly resyncs = new Set<Promise<void>>();

  /** `readStatus` reads an incident's status back after a failed call (from Postgres, or the API). */
  constructor(private readonly readStatus: (id: string) => Promise<IncidentStatus | undefined>) {}

  get size(): number {
    return this.idle.length;
  }

  /** Returns an incident with the status it is now in. */
  give(id: string, status: IncidentStatus): void {
    if (NEXT[status]) this.idle.push({ id, status });
  }

  take(): Loan {
    const next = this.idle.shift();
    if (!next) throw new Error('incident pool exhausted: too many failed lifecycle requests');
    const operation = NEXT[next.status]!;
    return { id: next.id, operation, expect: TRANSITIONS[operation].to };
  }

  /** After a failed call its state is unknown: read it back, then return it. */
  resync(id: string): Promise<void> {
    // An incident whose status cannot be read is left out of the pool.
    const done = this.readStatus(id)
      .then(
        (status) => status && this.give(id, status),
        () => undefined,
      )
      .finally(() => this.resyncs.delete(done));
    this.resyncs.add(done);
    return done;
  }

  /** Every idle incident, taken out of the pool (to lend the lot to another process), once pending resyncs are back. */
  async takeAll(): Promise<Idle[]> {
    await Promise.allSettled([...this.resyncs]);
    return this.idle.splice(0);
  }
}
