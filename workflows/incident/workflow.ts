import {
  allHandlersFinished,
  condition,
  continueAsNew,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { isTerminal, LIFECYCLE_OPERATIONS, type LifecycleOperation } from '../../src/domain/incident-lifecycle';
import {
  alertReceivedSignal,
  incidentStateQuery,
  lifecycleUpdates,
  searchAttributes,
  type AlertReceived,
  type IncidentSnapshot,
  type IncidentWorkflowInput,
  type LifecycleUpdateInput,
} from '../definitions';
import { AppliedEvents } from './applied-events';
import { HandlerLock } from './lock';
import { projections } from './projections';
import { IncidentState } from './state';

/** Past this many history events the run continues as new (design.md §4). */
const DEFAULT_HISTORY_LIMIT = 2000;

/** One long-running workflow per incident: owns its state and writes its projection. */
export async function incidentWorkflow(input: IncidentWorkflowInput): Promise<void> {
  const state = new IncidentState(input);
  const lock = new HandlerLock();
  const applied = new AppliedEvents(input.appliedEventIds);

  const transition = (op: LifecycleOperation, { actor }: LifecycleUpdateInput): Promise<IncidentSnapshot> =>
    lock.run(async () => {
      const outcome = state.decide(op);
      if (outcome.kind === 'noop') return projections().readIncident({ incidentId: input.incidentId });
      const seq = state.seq + 1;
      const snapshot = await projections().recordTransition({
        incidentId: input.incidentId,
        seq,
        operation: op,
        from: outcome.from,
        to: outcome.to,
        actor,
        at: new Date().toISOString(), // workflow time: deterministic on replay
      });
      state.apply(outcome.to, seq);
      upsertSearchAttributes([{ key: searchAttributes.status, value: outcome.to }]);
      return snapshot;
    });

  for (const op of LIFECYCLE_OPERATIONS) {
    setHandler(lifecycleUpdates[op], (arg) => transition(op, arg), { validator: (_arg: LifecycleUpdateInput) => void state.decide(op) });
  }
  // The opening event already has its `created` entry; an attached one gets its own.
  const alertReceived = (alert: AlertReceived): Promise<void> =>
    lock.run(async () => {
      if (!applied.add(alert.eventId) || alert.kind === 'opened') return;
      const seq = state.seq + 1;
      await projections().recordAlertAttached({ incidentId: input.incidentId, seq, eventId: alert.eventId, title: alert.title, at: new Date().toISOString() });
      state.seq = seq;
    });
  setHandler(alertReceivedSignal, alertReceived);
  setHandler(incidentStateQuery, () => ({ status: state.status, seq: state.seq }));

  await condition(() => isTerminal(state.status) || historyTooLong(input.historyLimit ?? DEFAULT_HISTORY_LIMIT));
  await condition(() => allHandlersFinished() && lock.free);
  if (!isTerminal(state.status)) {
    await continueAsNew<typeof incidentWorkflow>({ ...input, status: state.status, seq: state.seq, appliedEventIds: applied.toJSON() });
  }
}

function historyTooLong(limit: number): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > limit;
}
