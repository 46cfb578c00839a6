import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import {
  decideAckTimeout,
  decideTransition,
  isTerminal,
  LIFECYCLE_OPERATIONS,
  type IncidentStatus,
  type LifecycleOperation,
  type TransitionOperation,
} from '../../src/domain/incident-lifecycle';
import {
  alertReceivedSignal,
  alertsReceivedSignal,
  escalateNowSignal,
  incidentStateQuery,
  lifecycleUpdates,
  searchAttributes,
  type Actor,
  type AlertReceived,
  type AlertsReceived,
  type IncidentSnapshot,
  type IncidentWorkflowInput,
  type LifecycleUpdateInput,
} from '../definitions';
import { planAlertBatch, type AttachedAlert } from './alert-batch';
import { AppliedEvents } from './applied-events';
import { Escalator, PAGING_PATCH } from './escalation';
import { HandlerLock } from './lock';
import { projections } from './projections';
import { IncidentState } from './state';

/** Who resolves an incident when its sender resolves the last alert. */
const INGEST_ACTOR: Actor = { type: 'system', id: null, via: 'ingest' };
/** Who re-triggers an acknowledgement that timed out. */
const ACK_TIMEOUT_ACTOR: Actor = { type: 'system', id: null, via: 'ack_timeout' };

/** Past this many history events the run continues as new (design.md §4). */
const DEFAULT_HISTORY_LIMIT = 2000;

/** One long-running workflow per incident: owns its state and writes its projection. */
export async function incidentWorkflow(input: IncidentWorkflowInput): Promise<void> {
  const state = new IncidentState(input);
  const lock = new HandlerLock();
  const applied = new AppliedEvents(input.appliedEventIds);

  /** Writes a move, then adopts it; callers hold the lock and have decided it is a move. */
  const move = async (op: TransitionOperation, from: IncidentStatus, to: IncidentStatus, actor: Actor): Promise<IncidentSnapshot> => {
    const seq = state.seq + 1;
    const snapshot = await projections().recordTransition({
      incidentId: input.incidentId,
      seq,
      operation: op,
      from,
      to,
      actor,
      at: new Date().toISOString(), // workflow time: deterministic on replay
    });
    state.apply(to, seq);
    upsertSearchAttributes([{ key: searchAttributes.status, value: to }]);
    return snapshot;
  };

  const transition = (op: LifecycleOperation, { actor }: LifecycleUpdateInput): Promise<IncidentSnapshot> =>
    lock.run(async () => {
      const outcome = state.decide(op);
      if (outcome.kind === 'noop') return projections().readIncident({ incidentId: input.incidentId });
      return move(op, outcome.from, outcome.to, actor);
    });

  for (const op of LIFECYCLE_OPERATIONS) {
    setHandler(lifecycleUpdates[op], (arg) => transition(op, arg), { validator: (_arg: LifecycleUpdateInput) => void state.decide(op) });
  }
  /** The sender resolved its last alert: resolve if the incident still can be (a person may have been faster). */
  const resolveForSender = async (): Promise<void> => {
    const outcome = decideTransition(state.status, 'resolve');
    if (outcome.kind === 'move') await move('resolve', outcome.from, outcome.to, INGEST_ACTOR);
  };
  /** One timeline entry per alert, all in one write. */
  const attach = async (alerts: AttachedAlert[]): Promise<void> => {
    const firstSeq = state.seq + 1;
    await projections().recordAlertsAttached({ incidentId: input.incidentId, firstSeq, alerts, at: new Date().toISOString() });
    state.seq = firstSeq + alerts.length - 1;
  };

  // One event per signal: how the relay delivered before batching; histories hold it, so it stays.
  // The opening event already has its `created` entry; an attached one gets its own.
  const alertReceived = (alert: AlertReceived): Promise<void> =>
    lock.run(async () => {
      if (!applied.add(alert.eventId) || alert.kind === 'opened') return;
      if (alert.kind === 'resolved') return resolveForSender();
      const seq = state.seq + 1;
      await projections().recordAlertAttached({ incidentId: input.incidentId, seq, eventId: alert.eventId, title: alert.title, at: new Date().toISOString() });
      state.seq = seq;
    });
  setHandler(alertReceivedSignal, alertReceived);
  // A batch of events: a run of attached ones costs one activity. No patched() for it: it is a
  // new signal name, so no history recorded before it exists reaches this handler on replay.
  const alertsReceived = ({ events }: AlertsReceived): Promise<void> =>
    lock.run(async () => {
      for (const step of planAlertBatch(events, applied)) await (step.kind === 'resolve' ? resolveForSender() : attach(step.alerts));
    });
  setHandler(alertsReceivedSignal, alertsReceived);
  setHandler(incidentStateQuery, () => ({ status: state.status, seq: state.seq }));

  // Runs started before paging existed never page (their histories hold no marker).
  const paging = patched(PAGING_PATCH)
    ? new Escalator(
        input.incidentId,
        state,
        (stillWanted) => lock.run(async () => (stillWanted() ? ++state.seq : null)),
        () =>
          lock.run(async () => {
            const outcome = decideAckTimeout(state.status);
            if (outcome.kind === 'move') await move('ack_timeout', outcome.from, outcome.to, ACK_TIMEOUT_ACTOR);
          }),
        input.escalation,
      )
    : null;
  if (paging) setHandler(escalateNowSignal, () => paging.escalateNow());
  let ending = false;
  const escalating = paging?.run(() => ending);

  await condition(() => isTerminal(state.status) || historyTooLong(input.historyLimit ?? DEFAULT_HISTORY_LIMIT));
  ending = true;
  await escalating;
  await condition(() => allHandlersFinished() && lock.free);
  if (!isTerminal(state.status)) {
    await continueAsNew<typeof incidentWorkflow>({
      ...input,
      status: state.status,
      seq: state.seq,
      appliedEventIds: applied.toJSON(),
      escalation: paging?.snapshot(),
    });
  }
}

function historyTooLong(limit: number): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > limit;
}
