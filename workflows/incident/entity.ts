import { ApplicationFailure, patched, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import {
  decideAckTimeout,
  decideAutoClose,
  decideReassign,
  decideSnoozeEnd,
  decideTransition,
  formatWait,
  isTerminal,
  snoozeRefusal,
  type IncidentStatus,
  type LifecycleOperation,
  type TransitionOperation,
  type TransitionOutcome,
} from '../../src/domain/incident-lifecycle';
import {
  AUTO_CLOSE_ACTOR,
  INGEST_ACTOR,
  INVALID_TRANSITION,
  SNOOZE_ACTOR,
  searchAttributes,
  type Actor,
  type AddNoteInput,
  type IncidentMergedInput,
  type MergedAwayResult,
  type MergeIntoInput,
  type RespondersInput,
  type ResponderEntryResult,
  type SnoozeInput,
  type SnoozeResult,
  type IncidentSnapshot,
  type IncidentStateResult,
} from '../../src/contracts/workflows';
import type { IncidentEventType } from '../../src/domain/incident-events';
import type { AlertReceived, AlertsReceived, IncidentWorkflowInput, LifecycleUpdateInput } from '../../src/contracts/workflows';
import { planAlertBatch, type AlertBatchStep, type AttachedAlert, type SenderAcknowledge, type SenderResolve } from './alert-batch';
import { AppliedEvents } from './applied-events';
import { HandlerLock } from './lock';
import { projections } from './projections';
import { UpdateWriteBudget } from './update-writes';

/** Who re-triggers an acknowledgement that timed out. */
const ACK_TIMEOUT_ACTOR: Actor = { type: 'system', id: null, via: 'ack_timeout' };

/**
 * Patch id recorded in histories: never rename. Before it, an `acknowledged` event was attached
 * as an alert (the else branch of the batch plan); with it, the sender's acknowledge moves the
 * incident. Asked only for events that hold one, so other runs' histories stay as they were.
 */
export const SENDER_ACKNOWLEDGE_PATCH = 'sender-acknowledge';

/** Whether this run applies senders' acknowledges: asked once an event holds one (replay-safe). */
const sendersAcknowledge = (events: readonly AlertReceived[]): boolean => events.some((e) => e.kind === 'acknowledged') && patched(SENDER_ACKNOWLEDGE_PATCH);

/**
 * The incident as its workflow holds it (status, timeline seq, alert events applied) and every
 * decision on it. Whatever awaits a write runs under one lock (style rule 8), so each decision
 * sees the state the previous one left. The projection is written first and adopted after, so
 * the state never claims a write that has not happened.
 */
export class IncidentEntity {
  readonly incidentId: string;
  private currentStatus: IncidentStatus;
  private lastSeq: number;
  private moveCount = 0;
  private readonly lock = new HandlerLock();
  private applied: AppliedEvents;
  /** The seq of the last reopen: a sender's resolve accepted before it is stale. */
  private reopenedAtSeq: number;
  /** When the snooze of this ACKNOWLEDGED spell ends (epoch ms); null when not snoozed. Any move clears it. */
  private snoozeEndMs: number | null;
  /** Snoozes taken in this run: a snooze timer acts only for the snooze it was started for. */
  private snoozeCount = 0;

  constructor(input: IncidentWorkflowInput) {
    this.incidentId = input.incidentId;
    this.currentStatus = input.status;
    this.lastSeq = input.seq;
    this.applied = new AppliedEvents(input.appliedEventIds);
    this.reopenedAtSeq = input.reopenedAtSeq ?? 0;
    this.snoozeEndMs = input.status === 'ACKNOWLEDGED' ? (input.snoozedUntilMs ?? null) : null;
  }

  /**
   * A run started after the incident's earlier runs completed (a late event after close, a
   * reopen) takes its state from the projection before any handler runs: the status as it is
   * now, and the events already applied, so none is applied twice.
   */
  seedFromProjection(): Promise<void> {
    return this.lock.run(async () => {
      const seed = await projections().readRunSeed({ incidentId: this.incidentId });
      // A status other than the starter read ends the spell the escalation may have begun on it.
      if (seed.status !== this.currentStatus) this.moveCount += 1;
      this.currentStatus = seed.status;
      this.lastSeq = Math.max(this.lastSeq, seed.seq);
      this.applied = new AppliedEvents(seed.appliedEventIds);
      this.reopenedAtSeq = seed.reopenedAtSeq;
    });
  }

  get status(): IncidentStatus {
    return this.currentStatus;
  }

  /** The last timeline seq written (or reserved by a page). */
  get seq(): number {
    return this.lastSeq;
  }

  /** Status moves applied in this run: an escalation spell lasts while this stays the same. */
  get moves(): number {
    return this.moveCount;
  }

  /** When the current snooze ends (epoch ms), or null; with `snoozes`, what the snooze timer waits on. */
  get snoozedUntilMs(): number | null {
    return this.snoozeEndMs;
  }

  /** Snoozes taken in this run. */
  get snoozes(): number {
    return this.snoozeCount;
  }

  /** True once the run can complete. */
  get terminal(): boolean {
    return isTerminal(this.currentStatus);
  }

  /** True when no handler holds the lock or waits for it. */
  get idle(): boolean {
    return this.lock.free;
  }

  /** What the `incidentState` query answers. */
  state(): IncidentStateResult {
    return { status: this.currentStatus, seq: this.lastSeq };
  }

  /** What the next run resumes from after continueAsNew (the escalation adds its own). */
  resumeFrom(): Pick<IncidentWorkflowInput, 'status' | 'seq' | 'appliedEventIds' | 'reopenedAtSeq' | 'snoozedUntilMs'> {
    return {
      status: this.currentStatus,
      seq: this.lastSeq,
      appliedEventIds: this.applied.toJSON(),
      ...(this.reopenedAtSeq ? { reopenedAtSeq: this.reopenedAtSeq } : {}),
      ...(this.snoozeEndMs !== null ? { snoozedUntilMs: this.snoozeEndMs } : {}),
    };
  }

  /**
   * A responder's note (docs/responding.md): an entry on the timeline and in the feed, in turn
   * with every other write. Its caller waits, so its write has a budget, as a lifecycle update's.
   */
  addNote({ actor, text, answerBy }: AddNoteInput): Promise<ResponderEntryResult> {
    const budget = UpdateWriteBudget.start(answerBy);
    return this.lock.run(() => this.responderEntry({ type: 'note', actor, message: text, data: { text }, eventType: 'incident.note_added' }, budget));
  }

  /** A merge's validator on the incident merged away: an open one only (it resolves); changes nothing. */
  validateMergeInto(): void {
    const outcome = decideTransition(this.currentStatus, 'resolve');
    if (outcome.kind !== 'move') {
      throw ApplicationFailure.create({
        type: INVALID_TRANSITION,
        message: `cannot merge an incident that is ${this.currentStatus}; allowed from TRIGGERED, ACKNOWLEDGED, INVESTIGATING`,
        nonRetryable: true,
        details: [this.currentStatus],
      });
    }
  }

  /**
   * Merged into another incident (docs/responding.md, "Merge"): one write moves the alerts and
   * resolves it "merged into #N" at the next seq; adopted after, as every move. Escalation stops.
   */
  mergeInto({ actor, into, answerBy }: MergeIntoInput): Promise<MergedAwayResult> {
    const budget = UpdateWriteBudget.start(answerBy);
    return this.lock.run(async () => {
      this.validateMergeInto();
      const from = this.currentStatus;
      const seq = this.lastSeq + 1;
      try {
        const writer = budget ? budget.writer() : projections();
        const { timelineSeq, alertsMoved, ...incident } = await writer.recordMergedAway({
          incidentId: this.incidentId,
          seq,
          from,
          actor,
          at: new Date().toISOString(),
          into,
        });
        this.currentStatus = 'RESOLVED';
        this.moveCount += 1;
        this.snoozeEndMs = null;
        this.wrote(Math.max(seq, timelineSeq));
        upsertSearchAttributes([{ key: searchAttributes.status, value: 'RESOLVED' }]);
        return { incident, alerts_moved: alertsMoved };
      } catch (err) {
        throw budget ? UpdateWriteBudget.explain(err) : err;
      }
    });
  }

  /** The incident merged into records the merge: an entry keyed by the merged incident, so a repeat writes nothing. */
  recordMerged({ actor, merged, answerBy }: IncidentMergedInput): Promise<ResponderEntryResult> {
    const budget = UpdateWriteBudget.start(answerBy);
    const moved = `${merged.alerts_moved} alert${merged.alerts_moved === 1 ? '' : 's'}`;
    return this.lock.run(() =>
      this.responderEntry(
        {
          type: 'merged',
          actor,
          message: `Merged #${merged.number} into this incident (${moved} moved)`,
          data: { merged: { id: merged.id, number: merged.number }, alerts_moved: merged.alerts_moved },
          eventType: 'incident.merged',
          entryId: merged.id,
        },
        budget,
      ),
    );
  }

  /** A reassign's validator: from TRIGGERED or ACKNOWLEDGED only; changes nothing. */
  validateReassign(): void {
    const outcome = decideReassign(this.currentStatus);
    if (outcome.kind === 'invalid')
      throw ApplicationFailure.create({ type: INVALID_TRANSITION, message: outcome.message, nonRetryable: true, details: [this.currentStatus] });
  }

  /**
   * Reassigns the incident (docs/responding.md): a move to TRIGGERED (from ACKNOWLEDGED, or
   * TRIGGERED again: either way a new spell), then `restart` hands the chosen targets to the
   * escalation, which pages them as the new spell's first step.
   */
  reassign({ actor, targets, message, answerBy }: RespondersInput, restart: () => void): Promise<IncidentSnapshot> {
    const budget = UpdateWriteBudget.start(answerBy);
    return this.lock.run(async () => {
      const outcome = decideReassign(this.currentStatus);
      if (outcome.kind === 'invalid') {
        throw ApplicationFailure.create({ type: INVALID_TRANSITION, message: outcome.message, nonRetryable: true, details: [this.currentStatus] });
      }
      try {
        const writer = budget ? budget.writer() : projections();
        const detail = message ? `: “${message}”` : undefined;
        const snapshot = await this.move(
          'reassign',
          outcome.from,
          outcome.to,
          actor,
          { ...(detail ? { detail } : {}), data: { targets, message: message ?? null } },
          writer,
        );
        restart();
        return snapshot;
      } catch (err) {
        throw budget ? UpdateWriteBudget.explain(err) : err;
      }
    });
  }

  /** A snooze's validator: only an ACKNOWLEDGED incident snoozes; changes nothing. */
  validateSnooze(): void {
    const refusal = snoozeRefusal(this.currentStatus);
    if (refusal) throw ApplicationFailure.create({ type: INVALID_TRANSITION, message: refusal, nonRetryable: true, details: [this.currentStatus] });
  }

  /**
   * Snoozes the ACKNOWLEDGED incident: the entry is written, then the snooze adopted; the snooze
   * timer (snooze.ts) returns the incident to TRIGGERED when it ends. A later snooze replaces it.
   */
  snooze({ actor, minutes, answerBy }: SnoozeInput): Promise<SnoozeResult> {
    const budget = UpdateWriteBudget.start(answerBy);
    return this.lock.run(async () => {
      this.validateSnooze();
      const untilMs = Date.now() + minutes * 60_000;
      const until = new Date(untilMs).toISOString();
      const entry = await this.responderEntry(
        { type: 'snooze', actor, message: `Snoozed for ${formatWait(minutes * 60)}, until ${until}`, data: { minutes, until }, eventType: 'incident.snoozed' },
        budget,
      );
      this.snoozeEndMs = untilMs;
      this.snoozeCount += 1;
      return { entry, snoozed_until: until };
    });
  }

  /** The snooze timer ran out: an incident still ACKNOWLEDGED under that snooze returns to TRIGGERED. */
  snoozeEnded(snooze: number): Promise<void> {
    return this.lock.run(async () => {
      if (snooze !== this.snoozeCount || this.snoozeEndMs === null) return;
      const outcome = decideSnoozeEnd(this.currentStatus);
      if (outcome.kind === 'move') await this.move('snooze_end', outcome.from, outcome.to, SNOOZE_ACTOR);
    });
  }

  /**
   * Writes one responder entry at the next seq and adopts it; callers hold the lock. A lifecycle
   * update's budget, when there is one, bounds the write.
   */
  private async responderEntry(
    entry: Pick<ResponderEntryResult, 'type' | 'message' | 'data'> & { actor: Actor; eventType: IncidentEventType; entryId?: string },
    budget?: UpdateWriteBudget,
  ): Promise<ResponderEntryResult> {
    const at = new Date().toISOString();
    try {
      const writer = budget ? budget.writer() : projections();
      const { seq } = await writer.recordResponderEntry({
        incidentId: this.incidentId,
        entryId: entry.entryId ?? uuid4(),
        seq: this.lastSeq + 1,
        type: entry.type,
        actor: entry.actor,
        message: entry.message,
        data: entry.data,
        eventType: entry.eventType,
        at,
      });
      this.wrote(Math.max(seq, this.lastSeq));
      return { seq, type: entry.type, at, message: entry.message, data: entry.data };
    } catch (err) {
      throw budget ? UpdateWriteBudget.explain(err) : err;
    }
  }

  /** An update's validator: throws the failure the API maps to 409; changes nothing. */
  validate(op: LifecycleOperation): void {
    this.decide(op);
  }

  /**
   * A lifecycle update: a move is written and adopted; a repeat answers the projection as it is.
   * Its caller waits, so its write has a budget (update-writes.ts).
   */
  transition(op: LifecycleOperation, { actor, answerBy }: LifecycleUpdateInput): Promise<IncidentSnapshot> {
    const budget = UpdateWriteBudget.start(answerBy);
    return this.lock.run(async () => {
      const outcome = this.decide(op);
      try {
        const writer = budget ? budget.writer() : projections();
        if (outcome.kind === 'noop') return await writer.readIncident({ incidentId: this.incidentId });
        return await this.move(op, outcome.from, outcome.to, actor, {}, writer);
      } catch (err) {
        throw budget ? UpdateWriteBudget.explain(err) : err;
      }
    });
  }

  /**
   * One event per signal: how the relay delivered before batching; histories hold it, so it
   * stays. The opening event already has its `created` entry; an attached one gets its own.
   */
  alertReceived(alert: AlertReceived): Promise<void> {
    return this.lock.run(async () => {
      const acknowledge = sendersAcknowledge([alert]);
      if (!this.applied.add(alert.eventId) || alert.kind === 'opened') return;
      if (alert.kind === 'resolved') return this.resolveForSender(alert);
      if (alert.kind === 'acknowledged' && acknowledge) return this.acknowledgeForSender(alert);
      const seq = this.lastSeq + 1;
      await projections().recordAlertAttached({ incidentId: this.incidentId, seq, eventId: alert.eventId, title: alert.title, at: new Date().toISOString() });
      this.wrote(seq);
    });
  }

  /**
   * A batch of events: a run of attached ones costs one activity. No patched() for it: it is a
   * new signal name, so no history recorded before it exists reaches this handler on replay.
   */
  alertsReceived({ events }: AlertsReceived): Promise<void> {
    return this.lock.run(async () => {
      for (const step of planAlertBatch(events, this.applied, { senderAcknowledge: sendersAcknowledge(events) })) await this.applyStep(step);
    });
  }

  /** One step of a batch plan: a run of attached alerts, or a sender's resolve or acknowledge. */
  private applyStep(step: AlertBatchStep): Promise<void> {
    if (step.kind === 'resolve') return this.resolveForSender(step);
    if (step.kind === 'acknowledge') return this.acknowledgeForSender(step);
    return this.attach(step.alerts);
  }

  /**
   * A page's timeline seq if `stillWanted()` holds under the lock, else null. Checked under the
   * lock, so a page never starts after a move that was queued before it.
   */
  reservePageSeq(stillWanted: () => boolean): Promise<number | null> {
    return this.lock.run(async () => (stillWanted() ? this.wrote(this.lastSeq + 1) : null));
  }

  /** The acknowledge timeout ran out: an incident still ACKNOWLEDGED returns to TRIGGERED. */
  ackTimedOut(): Promise<void> {
    return this.lock.run(async () => {
      // A snooze decides when a snoozed incident returns (it replaces the acknowledge timeout).
      if (this.snoozeEndMs !== null) return;
      const outcome = decideAckTimeout(this.currentStatus);
      if (outcome.kind === 'move') await this.move('ack_timeout', outcome.from, outcome.to, ACK_TIMEOUT_ACTOR);
    });
  }

  /**
   * The auto-close timer ran out: an incident still RESOLVED, in the spell the timer was started
   * for (`stillWanted`: not reopened and resolved again meanwhile), closes as the system.
   */
  autoClose(stillWanted: () => boolean, afterSeconds: number): Promise<void> {
    return this.lock.run(async () => {
      const outcome = decideAutoClose(this.currentStatus);
      if (outcome.kind === 'move' && stillWanted())
        await this.move('auto_close', outcome.from, outcome.to, AUTO_CLOSE_ACTOR, { detail: `after ${formatWait(afterSeconds)}` });
    });
  }

  private decide(op: LifecycleOperation): Exclude<TransitionOutcome, { kind: 'invalid' }> {
    const outcome = decideTransition(this.currentStatus, op);
    if (outcome.kind === 'invalid') {
      throw ApplicationFailure.create({ type: INVALID_TRANSITION, message: outcome.message, nonRetryable: true, details: [this.currentStatus] });
    }
    return outcome;
  }

  /** Writes a move, then adopts it; callers hold the lock and have decided it is a move. */
  private async move(
    op: TransitionOperation,
    from: IncidentStatus,
    to: IncidentStatus,
    actor: Actor,
    note: { eventId?: string; detail?: string; data?: Record<string, unknown> } = {},
    writer = projections(),
  ): Promise<IncidentSnapshot> {
    const seq = this.lastSeq + 1;
    // Workflow time: deterministic on replay.
    const { timelineSeq, ...snapshot } = await writer.recordTransition({
      incidentId: this.incidentId,
      seq,
      operation: op,
      from,
      to,
      actor,
      at: new Date().toISOString(),
      ...note,
    });
    // The store may have put the entry further on (its seq held a lost workflow task's write);
    // writes recorded before it said so answer without timelineSeq.
    const written = Math.max(seq, timelineSeq ?? seq);
    this.currentStatus = to;
    this.moveCount += 1;
    this.snoozeEndMs = null;
    if (op === 'reopen') this.reopenedAtSeq = written;
    this.wrote(written);
    upsertSearchAttributes([{ key: searchAttributes.status, value: to }]);
    return snapshot;
  }

  /**
   * The sender resolved its last alert: resolve if the incident still can be (a person may have
   * been faster), unless a person reopened it after the resolve was accepted.
   */
  private async resolveForSender({ eventId, acceptedAtSeq }: SenderResolve): Promise<void> {
    if (acceptedAtSeq !== undefined && acceptedAtSeq < this.reopenedAtSeq) return;
    const outcome = decideTransition(this.currentStatus, 'resolve');
    if (outcome.kind === 'move') await this.move('resolve', outcome.from, outcome.to, INGEST_ACTOR, { eventId });
  }

  /**
   * The sender acknowledged (docs/compat-intake.md): a TRIGGERED incident moves as ingestion, the
   * entry saying how the sender asked; any other status ignores it (a person was faster, or it
   * is resolved), as an acknowledge of PagerDuty's ignores an alert that is not triggered.
   */
  private async acknowledgeForSender({ eventId, detail }: SenderAcknowledge): Promise<void> {
    const outcome = decideTransition(this.currentStatus, 'acknowledge');
    if (outcome.kind === 'move') await this.move('acknowledge', outcome.from, outcome.to, INGEST_ACTOR, { eventId, ...(detail ? { detail } : {}) });
  }

  /** One timeline entry per alert, all in one write. */
  private async attach(alerts: AttachedAlert[]): Promise<void> {
    const firstSeq = this.lastSeq + 1;
    const written = await projections().recordAlertsAttached({ incidentId: this.incidentId, firstSeq, alerts, at: new Date().toISOString() });
    // Further on than planned when seqs held a lost workflow task's writes; absent in older histories.
    this.wrote(Math.max(firstSeq + alerts.length - 1, written?.lastSeq ?? 0));
  }

  /** The one place seq changes: adopts the last seq written, or reserved for a page. */
  private wrote(seq: number): number {
    this.lastSeq = seq;
    return seq;
  }
}
