import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import { timestampChanges, type IncidentStatus, type LifecycleOperation } from '../src/domain/incident-lifecycle';
import { INCIDENT_COLUMNS, toSnapshot, type IncidentRow } from '../src/services/incident-view';
import type { Actor, IncidentSnapshot } from '../workflows/definitions';

export interface RecordTransitionInput {
  incidentId: string;
  seq: number;
  operation: LifecycleOperation;
  from: IncidentStatus;
  to: IncidentStatus;
  actor: Actor;
  at: string;
}

const PAST_TENSE: Record<LifecycleOperation, string> = {
  acknowledge: 'Acknowledged',
  investigate: 'Investigation started',
  resolve: 'Resolved',
  close: 'Closed',
  reopen: 'Reopened',
};

/** Projection writes: idempotent (keyed by incident and sequence number), so retries are safe. */
export function createProjectionActivities({ orm }: { orm: MikroORM }) {
  const knex = () => orm.em.fork().getKnex();

  async function readIncident({ incidentId }: { incidentId: string }): Promise<IncidentSnapshot> {
    const row = await knex()<IncidentRow>('incidents').select(INCIDENT_COLUMNS).where({ id: incidentId }).first();
    if (!row) throw ApplicationFailure.nonRetryable(`incident ${incidentId} has no projection`, 'IncidentNotFound');
    return toSnapshot(row as unknown as IncidentRow);
  }

  async function recordTransition(input: RecordTransitionInput): Promise<IncidentSnapshot> {
    const at = new Date(input.at);
    const row = await knex().transaction(async (trx) => {
      await trx('timeline_entries')
        .insert({
          id: randomUUID(),
          incident_id: input.incidentId,
          organization_id: trx('incidents').select('organization_id').where({ id: input.incidentId }),
          seq: input.seq,
          type: 'status_change',
          from_status: input.from,
          to_status: input.to,
          actor_type: input.actor.type,
          actor_id: input.actor.id,
          via: input.actor.via,
          message: `${PAST_TENSE[input.operation]} (${input.from} → ${input.to})`,
          created_at: at,
        })
        .onConflict(['incident_id', 'seq'])
        .ignore();
      const changes = Object.fromEntries(
        Object.entries(timestampChanges(input.operation, input.at)).map(([k, v]) => [k, v === null ? null : at]),
      );
      await trx('incidents')
        .update({ status: input.to, last_seq: input.seq, updated_at: at, ...changes })
        .where({ id: input.incidentId })
        .andWhere('last_seq', '<', input.seq);
      return trx<IncidentRow>('incidents').select(INCIDENT_COLUMNS).where({ id: input.incidentId }).first();
    });
    if (!row) throw ApplicationFailure.nonRetryable(`incident ${input.incidentId} has no projection`, 'IncidentNotFound');
    return toSnapshot(row as unknown as IncidentRow);
  }

  return { readIncident, recordTransition };
}
