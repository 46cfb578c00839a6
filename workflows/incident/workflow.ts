import { allHandlersFinished, ApplicationFailure, condition, continueAsNew, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import { LIFECYCLE_OPERATIONS, SNOOZE_MINUTES } from '../../src/domain/incident-lifecycle';
import {
  addNoteUpdate,
  incidentMergedUpdate,
  mergeIntoUpdate,
  addRespondersUpdate,
  reassignIncidentUpdate,
  RESPONDER_MESSAGE_MAX_CHARS,
  RESPONDER_TARGETS_MAX,
  type RespondersInput,
  NOTE_MAX_CHARS,
  snoozeIncidentUpdate,
  alertReceivedSignal,
  alertsReceivedSignal,
  escalateNowSignal,
  incidentStateQuery,
  maintenanceChangedSignal,
  pageDeliveryReportSignal,
  lifecycleUpdates,
  type IncidentWorkflowInput,
  type LifecycleUpdateInput,
} from '../../src/contracts/workflows';
import { AutoCloser } from './auto-close';
import { IncidentEntity } from './entity';
import { Escalator, PAGING_PATCH } from './escalation';
import { Snoozer } from './snooze';

/** Patch id recorded in histories: never rename. */
export const RUN_SEED_PATCH = 'run-seed-from-projection';

/** Past this many history events the run continues as new (docs/architecture.md, "Incidents"). */
const DEFAULT_HISTORY_LIMIT = 2000;

/**
 * One long-running workflow per incident: owns its state and writes its projection. The
 * incident, its escalation and its auto-close decide; this function wires their handlers, waits
 * for the run's end and continues as new.
 */
export async function incidentWorkflow(input: IncidentWorkflowInput): Promise<void> {
  const incident = new IncidentEntity(input);
  // A run for an incident whose earlier runs completed (a new incident has seq 1; continueAsNew
  // carries the state) takes its state from the projection first: it takes the handlers' lock
  // before setHandler hands this run its buffered signals and updates.
  if (input.seq > 1 && !workflowInfo().continuedFromExecutionRunId && patched(RUN_SEED_PATCH)) void incident.seedFromProjection();
  for (const op of LIFECYCLE_OPERATIONS) {
    setHandler(lifecycleUpdates[op], (arg) => incident.transition(op, arg), { validator: (_arg: LifecycleUpdateInput) => incident.validate(op) });
  }
  // Handlers first, as before: buffered signals start here, ahead of the paging patch's marker.
  // `paging` is read once their alerts are applied (a held spell may plan again, docs/grouping.md).
  let paging: Escalator | null = null;
  setHandler(alertReceivedSignal, (alert) => incident.alertReceived(alert).then(() => paging?.alertsAttached()));
  setHandler(alertsReceivedSignal, (batch) => incident.alertsReceived(batch).then(() => paging?.alertsAttached()));
  setHandler(incidentStateQuery, () => incident.state());
  // A responder's actions (docs/responding.md): new update names, so no recorded history reaches them.
  setHandler(addNoteUpdate, (arg) => incident.addNote(arg), { validator: (arg) => refuseUnless(noteFits(arg.text), 'text must be 1 to 10000 characters') });
  setHandler(snoozeIncidentUpdate, (arg) => incident.snooze(arg), {
    validator: (arg) => {
      refuseUnless(Number.isInteger(arg.minutes) && arg.minutes >= SNOOZE_MINUTES.min && arg.minutes <= SNOOZE_MINUTES.max, 'minutes must be 1 to 1440');
      incident.validateSnooze();
    },
  });

  // Runs started before paging existed never page (their histories hold no marker).
  paging = patched(PAGING_PATCH) ? new Escalator(incident, input.escalation) : null;

  if (paging) setHandler(escalateNowSignal, () => paging.escalateNow());
  // A new signal name: no history recorded before it holds one, so it needs no patch.
  if (paging) setHandler(maintenanceChangedSignal, () => paging.maintenanceChanged());
  if (paging) setHandler(pageDeliveryReportSignal, ({ notificationId }) => paging.deliveryReported(notificationId));
  setHandler(mergeIntoUpdate, (arg) => incident.mergeInto(arg), {
    validator: (arg) => {
      refuseUnless(typeof arg.into?.id === 'string' && arg.into.id !== incident.incidentId, 'an incident is merged into another');
      incident.validateMergeInto();
    },
  });
  setHandler(incidentMergedUpdate, (arg) => incident.recordMerged(arg));
  // Responders and reassign (docs/responding.md): new update names too.
  if (paging) {
    setHandler(addRespondersUpdate, (arg) => paging.addResponders(arg), {
      validator: (arg) => {
        refuseUnless(targetsFit(arg), 'targets must name 1 to 20 users, teams or schedules; message at most 1000 characters');
        paging.validateResponders();
      },
    });
    setHandler(reassignIncidentUpdate, (arg) => incident.reassign(arg, () => paging.reassignTo(arg.targets)), {
      validator: (arg) => {
        refuseUnless(targetsFit(arg), 'targets must name 1 to 20 users, teams or schedules; message at most 1000 characters');
        incident.validateReassign();
      },
    });
  }
  const autoClose = new AutoCloser(incident, input);
  let ending = false;
  const escalating = paging?.run(() => ending);
  const requested = paging?.runRequested(() => ending);
  const closing = autoClose.run(() => ending);
  const snoozing = new Snoozer(incident).run(() => ending);

  await condition(() => incident.terminal || historyTooLong(input.historyLimit ?? DEFAULT_HISTORY_LIMIT));
  ending = true;
  await escalating;
  await requested;
  await paging?.drained();
  await closing;
  await snoozing;
  await condition(() => allHandlersFinished() && incident.idle);
  if (!incident.terminal) {
    await continueAsNew<typeof incidentWorkflow>({ ...input, ...incident.resumeFrom(), escalation: paging?.snapshot(), ...autoClose.snapshot() });
  }
}

const TARGET_TYPES = new Set(['user', 'team', 'schedule']);
const targetsFit = ({ targets, message }: RespondersInput) =>
  Array.isArray(targets) &&
  targets.length >= 1 &&
  targets.length <= RESPONDER_TARGETS_MAX &&
  targets.every((t) => TARGET_TYPES.has(t.type) && typeof t.id === 'string') &&
  (message === undefined || (typeof message === 'string' && message.length <= RESPONDER_MESSAGE_MAX_CHARS));

const noteFits = (text: unknown) => typeof text === 'string' && text.trim().length > 0 && text.length <= NOTE_MAX_CHARS;

/** A validator's refusal of a malformed argument (the API checks first; this guards other callers). */
function refuseUnless(ok: boolean, message: string): void {
  if (!ok) throw ApplicationFailure.create({ type: 'InvalidArgument', message, nonRetryable: true });
}

function historyTooLong(limit: number): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > limit;
}
