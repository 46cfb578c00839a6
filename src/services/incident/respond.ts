/**
 * A responder's actions on one incident (docs/responding.md), each through the incident's own
 * workflow, which writes the entry on the timeline and in the incident-event feed: a note, a
 * snooze. The API and the CLI call these; the dashboard and API v1 answer what they return.
 */
import { snoozeRefusal } from '../../domain/incident-lifecycle';
import {
  addNoteUpdate,
  snoozeIncidentUpdate,
  type Actor,
  type IncidentSnapshot,
  type ResponderEntryResult,
  type SnoozeResult,
} from '../../../workflows/definitions';
import { conflict } from '../errors';
import { readIncidentRow, runIncidentUpdate, type IncidentDeps } from './incidents';
import { toSnapshot } from './view';

interface OnIncident {
  organizationId: string;
  incidentId: string;
  actor: Actor;
}

/** Adds a note; a CLOSED incident takes one too (a fresh run writes it, then completes). */
export async function addIncidentNote(deps: IncidentDeps, input: OnIncident & { text: string }): Promise<ResponderEntryResult> {
  const row = await readIncidentRow(deps, input.organizationId, input.incidentId);
  return runIncidentUpdate(deps, row, addNoteUpdate, (answerBy) => ({ actor: input.actor, text: input.text, answerBy }));
}

/** Snoozes an ACKNOWLEDGED incident for `minutes`; 409 invalid_transition from any other state. */
export async function snoozeIncident(deps: IncidentDeps, input: OnIncident & { minutes: number }): Promise<SnoozeResult & { incident: IncidentSnapshot }> {
  const row = await readIncidentRow(deps, input.organizationId, input.incidentId);
  // A closed incident has no running workflow: refuse without starting one just to say no.
  const refusal = row.status === 'CLOSED' ? snoozeRefusal(row.status) : null;
  if (refusal) throw conflict(refusal, 'invalid_transition');
  const snoozed = await runIncidentUpdate(deps, row, snoozeIncidentUpdate, (answerBy) => ({ actor: input.actor, minutes: input.minutes, answerBy }));
  // A snooze moves nothing: the incident stays ACKNOWLEDGED until the snooze ends.
  return { ...snoozed, incident: toSnapshot(row) };
}
