import type { Knex } from '@mikro-orm/postgresql';
import { RESOLVABLE_INCIDENT_STATUSES } from '../../domain/alert-status';
import type { IncidentStatus } from '../../domain/incident-lifecycle';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import type { Actor } from '../../contracts/workflows';
import { conflict, DomainError, notFound } from '../errors';
import { closeAlerts, reopenAlerts, transitionIncident, type IncidentDeps } from '../incident';
import { getAlert } from './read';
import type { AlertRecord } from './view';

/** What the marking transaction decided. */
interface Marked {
  incidentId: string;
  /** The alert was its open incident's last active one: the incident resolves too. */
  resolvesIncident: boolean;
}

/**
 * Marks the alert RESOLVED and decides, under the incident's row lock, whether it was the last
 * active alert of an open incident. Locks the alert row first, then the incident row — the order
 * ingestion's sender resolve takes them in (alerts, then incidents) — so the two never deadlock.
 * Two concurrent resolves of an incident's last two alerts serialise on the incident lock: the
 * second one's check runs after the first committed, so exactly one of them sees none left.
 */
async function markResolved(trx: Knex.Transaction, organizationId: string, alertId: string, now: Date): Promise<Marked> {
  const alert = (await trx('alerts').select('status', 'incident_id').where({ id: alertId, organization_id: organizationId }).forUpdate().first()) as
    { status: string; incident_id: string } | undefined;
  if (!alert) throw notFound(`alert ${alertId} not found`);
  if (alert.status === 'RESOLVED') throw conflict(`alert ${alertId} is already resolved`, 'alert_already_resolved');
  const incident = (await trx('incidents').select('status').where({ id: alert.incident_id }).forUpdate().first()) as { status: IncidentStatus };
  await trx('alerts').update({ status: 'RESOLVED', resolved_at: now }).where({ id: alertId });
  // The partial index alerts_active_incident_idx: cheap however long the incident's history.
  const stillActive = await trx('alerts').where({ incident_id: alert.incident_id, status: 'ACTIVE' }).first('id');
  const open = (RESOLVABLE_INCIDENT_STATUSES as readonly IncidentStatus[]).includes(incident.status);
  const resolvesIncident = !stillActive && open;
  // As a sender's last resolve does: the incident stops taking alerts now, so a re-fire of its
  // key while the workflow resolves it opens a new incident that pages (not one about to resolve).
  if (resolvesIncident) await closeAlerts(trx, alert.incident_id, now);
  return { incidentId: alert.incident_id, resolvesIncident };
}

/** Takes back this call's mark (and only it: a later resolve's timestamp differs). */
async function unmark(deps: IncidentDeps, marked: Marked, alertId: string, at: Date): Promise<void> {
  await knexOf(deps.orm).transaction(async (trx) => {
    await trx('alerts').update({ status: 'ACTIVE', resolved_at: null }).where({ id: alertId, status: 'RESOLVED', resolved_at: at });
    await reopenAlerts(trx, marked.incidentId, at);
  });
}

/**
 * Resolves an alert (this module is the API's one writer of `alerts`): marks it RESOLVED, and
 * when that leaves its open incident with no active alert, resolves the incident through its
 * workflow, as the caller. An alert already resolved is 409 `alert_already_resolved`.
 *
 * Ordering: the mark commits first and the workflow is asked after. Asking while the
 * transaction is open cannot work: the workflow's own write takes the incident row this
 * transaction locks, so the update would wait on us until its deadline and fail every time.
 * Asking before the transaction cannot keep its promise either: "was it the last active alert?"
 * must be answered together with the mark, under the lock, or two concurrent resolves of the
 * last two alerts both see the other still active and the incident never resolves.
 *
 * So a failed workflow call is compensated: when the incident could not be resolved (Temporal
 * away → 503, or any other error) this call's mark is taken back before the error propagates, so
 * the caller's retry finds the alert active and tries again — the API-wide rule that a caller
 * told 503 finds nothing moved (the workflow writes nothing it cannot answer in time). Only a 409
 * from the workflow keeps the mark: the incident has gone past resolving (closed meanwhile), so
 * there is nothing left to do for it. If the database is gone too, the take-back fails and the
 * alert stays resolved with its incident open; the incident can still be resolved directly.
 * In the short window before a take-back, a second resolve of the same alert hears 409
 * `alert_already_resolved`.
 */
export async function resolveAlert(deps: IncidentDeps, input: { organizationId: string; alertId: string; actor: Actor }): Promise<AlertRecord> {
  if (!isUuid(input.alertId)) throw notFound(`alert ${input.alertId} not found`);
  const now = new Date();
  const marked = await knexOf(deps.orm).transaction((trx) => markResolved(trx, input.organizationId, input.alertId, now));
  if (marked.resolvesIncident) {
    try {
      await transitionIncident(deps, { organizationId: input.organizationId, incidentId: marked.incidentId, operation: 'resolve', actor: input.actor });
    } catch (err) {
      if (!(err instanceof DomainError && err.kind === 'conflict')) {
        await unmark(deps, marked, input.alertId, now).catch(() => undefined); // the original error is the one to report
        throw err;
      }
    }
  }
  return getAlert(deps, input.organizationId, input.alertId);
}
