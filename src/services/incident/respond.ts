/**
 * A responder's actions on one incident (docs/responding.md), each through the incident's own
 * workflow, which writes the entry on the timeline and in the incident-event feed: a note, a
 * snooze, responders added, a reassign. The dashboard and API v1 answer what these return.
 */
import { decideReassign, respondersRefusal, snoozeRefusal } from '../../domain/incident-lifecycle';
import {
  addNoteUpdate,
  addRespondersUpdate,
  reassignIncidentUpdate,
  snoozeIncidentUpdate,
  type Actor,
  type IncidentSnapshot,
  type ResponderEntryResult,
  type ResponderTarget,
  type RespondersResult,
  type SnoozeResult,
} from '../../contracts/workflows';
import { conflict, invalid } from '../errors';
import { targetsOutsideWorkspace } from '../paging/escalation-policies';
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

interface ResponderRequest extends OnIncident {
  targets: ResponderTarget[];
  message?: string;
}

/** Every target in the workspace and pageable, or 400 naming each that is not; changes nothing. */
async function checkTargets(deps: IncidentDeps, input: ResponderRequest): Promise<void> {
  const bad = await targetsOutsideWorkspace(deps.orm, input.organizationId, input.targets);
  if (bad.length) throw invalid(bad.join('; '), 'unknown_target');
}

/**
 * Pages more people now through their notification rules (the timeline says who asked, whom it
 * reached); an open incident only (409 invalid_transition once RESOLVED or CLOSED).
 */
export async function addIncidentResponders(deps: IncidentDeps, input: ResponderRequest): Promise<RespondersResult> {
  const row = await readIncidentRow(deps, input.organizationId, input.incidentId);
  const refusal = respondersRefusal(row.status);
  if (refusal) throw conflict(refusal, 'invalid_transition');
  await checkTargets(deps, input);
  return runIncidentUpdate(deps, row, addRespondersUpdate, (answerBy) => ({ actor: input.actor, targets: input.targets, message: input.message, answerBy }));
}

/**
 * Reassigns a TRIGGERED or ACKNOWLEDGED incident: it becomes TRIGGERED and its escalation restarts
 * with the chosen targets as the first step (the policy's later steps after). Answers the incident.
 */
export async function reassignIncident(deps: IncidentDeps, input: ResponderRequest): Promise<IncidentSnapshot> {
  const row = await readIncidentRow(deps, input.organizationId, input.incidentId);
  const decided = decideReassign(row.status);
  if (decided.kind === 'invalid') throw conflict(decided.message, 'invalid_transition');
  await checkTargets(deps, input);
  return runIncidentUpdate(deps, row, reassignIncidentUpdate, (answerBy) => ({ actor: input.actor, targets: input.targets, message: input.message, answerBy }));
}
