import type { AlertReceived } from '../../src/contracts/workflows';
import type { AppliedEvents } from './applied-events';

/** An alert that joined the incident, as its timeline entry needs it. */
export interface AttachedAlert {
  eventId: string;
  title: string;
}

/** A sender's resolve: its event, and the seq it was accepted at (absent in histories from before it was kept). */
export interface SenderResolve {
  eventId: string;
  acceptedAtSeq?: number;
}

/** A sender's acknowledge: its event, and how the sender asked (said on the timeline). */
export interface SenderAcknowledge {
  eventId: string;
  detail?: string;
}

/** One write a batch of alert events needs, in the order the events came. */
export type AlertBatchStep =
  { kind: 'attach'; alerts: AttachedAlert[] } | ({ kind: 'resolve' } & SenderResolve) | ({ kind: 'acknowledge' } & SenderAcknowledge);

/**
 * Turns a batch of alert events into the writes it needs: each run of consecutive new `attached`
 * events is one step (one activity, however long the run); a `resolved` or `acknowledged` event
 * ends the run and is a step of its own; an `opened` event already has its `created` entry.
 * Events already applied are dropped and every new one is recorded as applied, so a redelivered
 * batch plans nothing. Without `senderAcknowledge` (replaying a run from before it existed) an
 * `acknowledged` event is attached as an alert, as that run's code did.
 */
export function planAlertBatch(events: readonly AlertReceived[], applied: AppliedEvents, { senderAcknowledge = true } = {}): AlertBatchStep[] {
  const steps: AlertBatchStep[] = [];
  let run: AttachedAlert[] | undefined;
  for (const event of events) {
    if (!applied.add(event.eventId) || event.kind === 'opened') continue;
    if (event.kind === 'resolved') {
      steps.push({ kind: 'resolve', eventId: event.eventId, ...(event.acceptedAtSeq === undefined ? {} : { acceptedAtSeq: event.acceptedAtSeq }) });
      run = undefined;
      continue;
    }
    if (event.kind === 'acknowledged' && senderAcknowledge) {
      steps.push({ kind: 'acknowledge', eventId: event.eventId, ...(event.detail === undefined ? {} : { detail: event.detail }) });
      run = undefined;
      continue;
    }
    if (!run) steps.push({ kind: 'attach', alerts: (run = []) });
    run.push({ eventId: event.eventId, title: event.title });
  }
  return steps;
}
