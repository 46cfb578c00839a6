import type { MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import {
  type AlertsAttachedEntry,
  INCIDENT_COLUMNS,
  type IncidentRow,
  readRunSeed,
  recordAlertsAttached,
  recordMergedAway,
  recordResponderEntry,
  type MergedAwayEntry,
  type ResponderEntry,
  recordTransition,
  type RunSeed,
  toSnapshot,
  type TransitionEntry,
} from '../src/services/incident';
import type { IncidentSnapshot } from '../src/contracts/workflows';

export type RecordTransitionInput = TransitionEntry;

/** A run of alerts that joined an incident: their timeline entries take firstSeq, firstSeq+1, … */
export type RecordAlertsAttachedInput = AlertsAttachedEntry & { alerts: Array<{ eventId: string; title: string }> };

const missing = (incidentId: string) => ApplicationFailure.nonRetryable(`incident ${incidentId} has no projection`, 'IncidentNotFound');

/**
 * The workflow's projection writes, through the incident store: idempotent (keyed by incident
 * and sequence number), so retries are safe. Activity names are recorded in histories: keep them.
 */
export function createProjectionActivities({ orm }: { orm: MikroORM }) {
  const knex = () => orm.em.fork().getKnex();

  async function readIncident({ incidentId }: { incidentId: string }): Promise<IncidentSnapshot> {
    const row = await knex()<IncidentRow>('incidents').select(INCIDENT_COLUMNS).where({ id: incidentId }).first();
    if (!row) throw missing(incidentId);
    return toSnapshot(row as unknown as IncidentRow);
  }

  /** The move's entry and the row change together; a retried attempt returns the row unchanged. */
  async function recordTransitionActivity(input: RecordTransitionInput): Promise<IncidentSnapshot & { timelineSeq: number }> {
    const written = await recordTransition(knex(), input);
    if (!written) throw missing(input.incidentId);
    return { ...toSnapshot(written.row), timelineSeq: written.seq };
  }

  /** One alert that joined the incident: how the relay delivered before batching (histories hold it). */
  async function recordAlertAttached(input: { incidentId: string; seq: number; eventId: string; title: string; at: string }): Promise<void> {
    await recordAlertsAttached(knex(), {
      incidentId: input.incidentId,
      firstSeq: input.seq,
      alerts: [{ title: input.title, eventId: input.eventId }],
      at: input.at,
    });
  }

  /** A run of alerts that joined the incident, numbered firstSeq onwards. */
  async function recordAlertsAttachedActivity(input: RecordAlertsAttachedInput): Promise<{ lastSeq: number }> {
    return recordAlertsAttached(knex(), input);
  }

  /** Where a run started after earlier runs completed resumes from (status, seq, applied events). */
  async function readRunSeedActivity({ incidentId }: { incidentId: string }): Promise<RunSeed> {
    const seed = await readRunSeed(knex(), incidentId);
    if (!seed) throw missing(incidentId);
    return seed;
  }

  /** A responder's entry (a note, a snooze, …) at its seq; a retry finds it by its id. */
  async function recordResponderEntryActivity(input: ResponderEntry): Promise<{ seq: number }> {
    const written = await recordResponderEntry(knex(), input);
    if (!written) throw missing(input.incidentId);
    return written;
  }

  /** A merge's write on the incident merged away: its alerts move, it resolves "merged into #N". */
  async function recordMergedAwayActivity(input: MergedAwayEntry): Promise<IncidentSnapshot & { timelineSeq: number; alertsMoved: number }> {
    const written = await recordMergedAway(knex(), input);
    if (!written) throw missing(input.incidentId);
    return { ...toSnapshot(written.row), timelineSeq: written.seq, alertsMoved: written.alertsMoved };
  }

  return {
    readIncident,
    recordMergedAway: recordMergedAwayActivity,
    recordResponderEntry: recordResponderEntryActivity,
    recordTransition: recordTransitionActivity,
    recordAlertAttached,
    recordAlertsAttached: recordAlertsAttachedActivity,
    readRunSeed: readRunSeedActivity,
  };
}
