import type { MikroORM } from '@mikro-orm/postgresql';
import { TRANSITIONS, type IncidentStatus, type LifecycleOperation } from '../src/domain/incident-lifecycle';

/** The cycle each incident goes round: every step is a real move, never a no-op or a close. */
const NEXT: Partial<Record<IncidentStatus, LifecycleOperation>> = {
  TRIGGERED: 'acknowledge',
  ACKNOWLEDGED: 'investigate',
  INVESTIGATING: 'resolve',
  RESOLVED: 'reopen',
};

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
  private readonly idle: Array<{ id: string; status: IncidentStatus }> = [];

  constructor(private readonly orm: MikroORM) {}

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

  /** After a failed call its state is unknown: read it back from the projection, then return it. */
  async resync(id: string): Promise<void> {
    const row = await this.orm.em.fork().getKnex()('incidents').select('status').where({ id }).first();
    if (row) this.give(id, row.status as IncidentStatus);
  }
}
