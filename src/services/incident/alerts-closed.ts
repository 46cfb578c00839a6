/**
 * `incidents.alerts_closed_at`: the moment an incident stopped taking alerts because its last
 * active alert resolved (a sender's resolve, or the API's alert resolve), before its workflow
 * resolves it. Part of the incident store (the one writer of `incidents`); callers pass their
 * transaction, which already holds the incident's row lock, so the mark commits with the alert
 * writes that justify it.
 */
import type { Knex } from '@mikro-orm/postgresql';
import { RESOLVABLE_INCIDENT_STATUSES } from '../../domain/alert-status';

/**
 * Marks an open incident as taking no more alerts, unless already marked. Returns the seq the
 * resolve was accepted at (a reopen written after it makes it stale), or null when nothing was
 * marked (the incident was closed or already marked).
 */
export async function closeAlertsOfOpenIncident(trx: Knex.Transaction, incidentId: string, at: Date): Promise<number | null> {
  const closing: Array<{ last_seq: number }> = await trx('incidents')
    .update({ alerts_closed_at: at })
    .where({ id: incidentId })
    .whereIn('status', RESOLVABLE_INCIDENT_STATUSES)
    .whereNull('alerts_closed_at')
    .returning('last_seq');
  return closing.length ? closing[0].last_seq : null;
}

/** Marks the incident as taking no more alerts, unless already marked (the caller checked it is open). */
export async function closeAlerts(trx: Knex.Transaction, incidentId: string, at: Date): Promise<void> {
  await trx('incidents').update({ alerts_closed_at: at }).where({ id: incidentId }).whereNull('alerts_closed_at');
}

/** Takes back the mark made at `at`, and only it: a later resolve's mark has another timestamp. */
export async function reopenAlerts(trx: Knex.Transaction, incidentId: string, at: Date): Promise<void> {
  await trx('incidents').update({ alerts_closed_at: null }).where({ id: incidentId, alerts_closed_at: at });
}
