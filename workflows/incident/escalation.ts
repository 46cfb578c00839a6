import {
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  condition,
  patched,
  TemporalFailure,
  proxyActivities,
  proxyLocalActivities,
  uuid4,
} from '@temporalio/workflow';
import { respondersRefusal } from '../../src/domain/incident-lifecycle';
import { INVALID_TRANSITION, type RespondersInput, type RespondersResult } from '../../src/contracts/workflows';
import type { createPagingActivities } from '../../activities/paging';
import type { PlannedEscalation } from '../../activities/paging/plan';
import type { SendOutcome, SendPageInput } from '../../activities/paging/send';
import type { CarrierProgress } from '../../activities/paging/carriers';
import type { CarrierFinal, CarrierSetback } from '../../src/domain/paging/failover';
import { FIRST_ATTEMPT_TIMEOUT_MS, RETRY_ATTEMPT_TIMEOUT_MS } from '../../src/domain/paging/attempt-timeouts';
import {
  nextWakeMs,
  pageStep,
  startCursor,
  takeDue,
  type EscalationCursor,
  type EscalationMemory,
  type PageJob,
  type ScheduledPage,
} from '../../src/domain/paging/escalation-plan';
import type { IncidentEntity } from './entity';

type PagingActivities = ReturnType<typeof createPagingActivities>;

/** What an escalation reads of its incident, and asks of it (each under the incident's lock). */
export type EscalatedIncident = Pick<IncidentEntity, 'incidentId' | 'status' | 'moves' | 'reservePageSeq' | 'ackTimedOut'>;

/** An open incident: pages responders asked for still go out. */
const OPEN = new Set(['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING']);

/**
 * Reading the policy and who is on call, and recording a failed page: quick database work, run
 * as local activities inside the workflow task, so the first page costs no extra round trips
 * through the task queue.
 */
const lookups = proxyLocalActivities<PagingActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds' },
});
/**
 * A page's first attempt, inside the workflow task that decided it: no round trips through the
 * server's task queues between the decision and the provider. One try only: if it fails, the
 * page goes to `delivery` and its retries. Its cap outlasts the provider call's own deadline
 * (attempt-timeouts.ts), so it never times out while the call may still succeed; options of a
 * local activity are not in the history, so the longer cap needs no patch.
 */
const firstAttempt = proxyLocalActivities<PagingActivities>({
  startToCloseTimeout: FIRST_ATTEMPT_TIMEOUT_MS,
  retry: { maximumAttempts: 1 },
});
/** One page: retried with backoff for a few minutes; a permanent provider error is an outcome, not a throw. */
/**
 * The lookup behind added responders: a caller waits for it (an Update), so a few quick tries,
 * not retries until Postgres is back; a failure fails the Update (the API answers 503).
 */
const responderLookup = proxyLocalActivities<PagingActivities>({
  startToCloseTimeout: '5 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '2 seconds', maximumAttempts: 3 },
});
/**
 * A failover's steps (docs/reliability.md, "Carriers"): how the carrier did, the line. Remote, not
 * local: they run beside other coroutines' local activities (an alert batch's projection), and
 * local activities resolving in a different order on replay than they did live would make the run
 * take another path; a remote activity's result has its place in the history.
 */
const failoverSteps = proxyActivities<PagingActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});
const delivery = proxyActivities<PagingActivities>({
  startToCloseTimeout: RETRY_ATTEMPT_TIMEOUT_MS,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 8 },
});

/** Patch id recorded in histories: never rename. Runs started before it never page. */
export const PAGING_PATCH = 'paging-escalation';
/** Patch id: never rename. Runs that recorded pages before it send every attempt as a remote activity. */
export const LOCAL_FIRST_ATTEMPT_PATCH = 'page-local-first-attempt';
/** Patch id: never rename. Runs from before it page without a decision entry per step (docs/architecture.md, "Incidents"). */
export const PAGING_DECISIONS_PATCH = 'paging-decision-entries';
/**
 * Patch id: never rename. Since it, a spell's plan and its first step's recipients (and decision
 * entry) are one lookup: the seq of the decision is reserved first, then planEscalation answers
 * both. Runs from before it read the plan, then the step.
 */
export const PLAN_WITH_FIRST_STEP_PATCH = 'plan-with-first-step';
/**
 * Patch id: never rename. Since it, the spell's plan also asks whether a maintenance window of the
 * service holds it (docs/maintenance-windows.md): held, it writes "Not paged: …" where step 1's
 * decision would go and the spell waits on a timer until the window ends, then plans again.
 */
export const MAINTENANCE_HOLD_PATCH = 'maintenance-hold';
/**
 * Patch id: never rename. Since it, alerts attached while a grouping rule's page_after holds the
 * spell make it plan again at once (docs/grouping.md, "Holding pages").
 */
export const PAGE_AFTER_PATCH = 'grouping-page-after';
/**
 * Patch id: never rename. Since it, a phone page whose carrier refuses, fails or does not confirm
 * it goes to the next carrier of its route (docs/reliability.md, "Carriers"): the run waits for the
 * carrier's report on a workflow timer, then sends through the next, and writes the failover's line.
 */
export const CARRIER_FAILOVER_PATCH = 'carrier-failover';

/**
 * Runs the escalation policy while the incident is TRIGGERED (docs/architecture.md, "Incidents" and "Paging"): every
 * timer is a workflow timer, so it survives worker and server restarts. An acknowledge,
 * investigate, resolve or close stops it at once (no page is started after the move); the
 * acknowledge timeout re-triggers; every new TRIGGERED spell starts again at step 1.
 */
export class Escalator {
  private memory: EscalationMemory;
  /** Pages being sent: the escalation moves on without them; the run waits for them before it ends. */
  private readonly sending = new Set<Promise<void>>();
  /** Bumped by escalateNow, so a sleeping escalation wakes. */
  private nudges = 0;
  /** Bumped when a window of the service was ended early or deleted, so a held spell plans again. */
  private maintenanceNudges = 0;
  /** Bumped when responders are added, so the requested pages' loop looks again. */
  private requestNudges = 0;
  /** Pages being sent: a carrier's report on one of them is kept for its failover. */
  private readonly following = new Set<string>();
  /** Of those, pages a carrier reported on (pageDeliveryReportSignal): the wait ends now. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly incident: EscalatedIncident,
    resume: EscalationMemory | undefined,
  ) {
    this.memory = resume ?? { plan: null, cursor: null };
  }

  /** A responder asked for the next step now (voice key 2): it pages at once, if there is one. */
  escalateNow(): void {
    const cursor = this.memory.cursor;
    if (this.incident.status === 'TRIGGERED' && cursor && cursor.nextStepAtMs !== null) {
      this.memory.cursor = { ...cursor, nextStepAtMs: Date.now() };
      this.nudges += 1;
    }
  }

  /** A carrier reported on a page: a failover waiting for that page's report looks now. */
  deliveryReported(notificationId: string): void {
    if (this.following.has(notificationId)) this.reported.add(notificationId);
  }

  /** A maintenance window of the service was ended early or deleted: a held spell plans again now. */
  maintenanceChanged(): void {
    this.maintenanceNudges += 1;
  }

  /** A reassign moved the incident (a new spell): that spell's first step pages `targets`. */
  reassignTo(targets: NonNullable<EscalationMemory['reassignTo']>): void {
    this.memory.reassignTo = targets;
  }

  /** An add-responders Update's validator: an open incident only; changes nothing. */
  validateResponders(): void {
    const refusal = respondersRefusal(this.incident.status);
    if (refusal) throw ApplicationFailure.create({ type: INVALID_TRANSITION, message: refusal, nonRetryable: true, details: [this.incident.status] });
  }

  /**
   * Responders added (docs/responding.md): the entry's seq is reserved under the incident's lock
   * while it is open, one lookup writes the entry (who asked, whom it reached) and answers the
   * pages, which go out by each person's rules, whatever the escalation is doing.
   */
  async addResponders({ actor, targets, message }: RespondersInput): Promise<RespondersResult> {
    const stillOpen = () => OPEN.has(this.incident.status);
    const seq = await this.incident.reservePageSeq(stillOpen);
    if (seq === null) this.validateResponders();
    const at = new Date(Date.now()).toISOString();
    const entryId = uuid4();
    const {
      jobs,
      seq: written,
      message: said,
      data,
    } = await responderLookup.responderRecipients({
      incidentId: this.incident.incidentId,
      targets,
      at,
      entryId,
      seq: seq!,
      actor,
      ...(message ? { message } : {}),
    });
    const now = Date.now();
    const scheduled = jobs.map((job) => ({ ...job, notificationId: uuid4(), step: 0, dueAtMs: now + job.delaySeconds * 1000 }));
    this.memory.requested = [...(this.memory.requested ?? []), ...scheduled];
    this.requestNudges += 1;
    return { entry: { seq: written, type: 'responders_added', at, message: said, data }, pages: scheduled.length };
  }

  /** Sends the pages responders asked for as they fall due, while the incident is open; until `stopped()`. */
  async runRequested(stopped: () => boolean): Promise<void> {
    const stillOpen = () => OPEN.has(this.incident.status);
    for (;;) {
      await condition(() => stopped() || (this.memory.requested?.length ?? 0) > 0);
      if (stopped()) return;
      const now = Date.now();
      const pending = this.memory.requested ?? [];
      this.memory.requested = pending.filter((p) => p.dueAtMs > now);
      for (const page of pending.filter((p) => p.dueAtMs <= now)) this.track(this.send(page, stillOpen, true));
      if (!this.memory.requested.length) continue;
      const nudges = this.requestNudges;
      const wake = Math.min(...this.memory.requested.map((p) => p.dueAtMs));
      await condition(() => stopped() || this.requestNudges !== nudges, Math.max(1, wake - Date.now()));
    }
  }

  /** Resolves once every page started (the escalation's and responders') has finished. */
  async drained(): Promise<void> {
    while (this.sending.size) await Promise.all(this.sending);
  }

  /** Alerts joined the incident: a spell a grouping rule holds until enough arrive plans again now. */
  alertsAttached(): void {
    if (this.memory.heldForAlerts && patched(PAGE_AFTER_PATCH)) this.maintenanceNudges += 1;
  }

  /** What a continued run resumes from. */
  snapshot(): EscalationMemory {
    return this.memory;
  }

  /** Runs until `stopped()` (the run is ending): escalates each TRIGGERED spell, times out acks. */
  async run(stopped: () => boolean): Promise<void> {
    for (;;) {
      await condition(() => stopped() || this.incident.status === 'TRIGGERED' || this.incident.status === 'ACKNOWLEDGED');
      if (stopped()) return;
      const spell = this.incident.moves;
      const sameSpell = () => this.incident.moves === spell;
      if (this.incident.status === 'TRIGGERED') await this.escalate(sameSpell, stopped);
      else await this.awaitAckTimeout(sameSpell, stopped);
      // Escalation may have finished on its own: wait for the next move.
      await condition(() => stopped() || !sameSpell());
      // A move ends the spell: the next TRIGGERED one plans afresh from step 1 (and is held afresh).
      if (!sameSpell()) {
        this.memory.cursor = null;
        delete this.memory.heldUntilMs;
        delete this.memory.heldForAlerts;
      }
      if (stopped()) {
        await Promise.all(this.sending);
        return;
      }
    }
  }

  private async escalate(sameSpell: () => boolean, stopped: () => boolean): Promise<void> {
    // Step 1's pages, when the plan's lookup answered them too (since PLAN_WITH_FIRST_STEP_PATCH).
    let firstStep: PageJob[] | null = null;
    // Planned once, unless a maintenance window holds the spell (since MAINTENANCE_HOLD_PATCH):
    // then it waits for the window's end and plans again, as if it had just opened.
    while (!this.memory.cursor) {
      const heldUntilMs = this.memory.heldUntilMs;
      if (heldUntilMs !== undefined && !(await this.waitOutHold(heldUntilMs, sameSpell, stopped))) return;
      const planned = await this.plan(sameSpell);
      if (planned === null) return;
      const { firstStep: jobs, heldUntil, heldForAlerts, ...plan } = planned;
      if (heldUntil !== undefined) {
        this.memory = { plan, cursor: null, heldUntilMs: Date.parse(heldUntil), ...(heldForAlerts ? { heldForAlerts } : {}) };
        continue;
      }
      this.memory = { plan, cursor: startCursor(plan, Date.now()) };
      firstStep = jobs ?? null;
    }
    while (sameSpell() && !stopped()) {
      let cursor = this.memory.cursor!;
      const now = Date.now();
      if (cursor.nextStepAtMs !== null && cursor.nextStepAtMs <= now) {
        const jobs = firstStep ?? (await this.recipients(cursor, now, sameSpell));
        firstStep = null;
        if (jobs === null || !sameSpell()) return;
        cursor = pageStep(cursor, jobs, now, uuid4);
      }
      const { due, cursor: rest } = takeDue(cursor, now);
      this.memory.cursor = rest;
      // Sent without waiting: a page retrying through a provider outage must not hold up the next
      // step. Pages already due go out even if the run is about to continue as new (run() waits).
      for (const page of due) this.track(this.send(page, sameSpell));
      const nudges = this.nudges;
      const wake = nextWakeMs(this.memory.cursor);
      if (wake === null) return;
      await condition(() => stopped() || !sameSpell() || this.nudges !== nudges, Math.max(1, wake - Date.now()));
    }
  }

  /**
   * The spell's plan. Since PLAN_WITH_FIRST_STEP_PATCH, with step 1's pages: its decision's seq is
   * reserved first, as recipients() reserves it. Null: the spell ended before the seq could be
   * reserved.
   */
  private async plan(sameSpell: () => boolean): Promise<PlannedEscalation | null> {
    const incidentId = this.incident.incidentId;
    if (!patched(PLAN_WITH_FIRST_STEP_PATCH)) return lookups.planEscalation({ incidentId });
    const decisionSeq = await this.incident.reservePageSeq(sameSpell);
    if (decisionSeq === null) return null;
    const firstStep = { step: 0, cycle: 0, at: new Date(Date.now()).toISOString(), decisionSeq } as const;
    // A reassigned spell: its chosen targets are step 1 (a new wait reached only by a reassign).
    const targets = this.memory.reassignTo;
    if (targets) return lookups.planEscalation({ incidentId, firstStep, targets });
    if (!patched(MAINTENANCE_HOLD_PATCH)) return lookups.planEscalation({ incidentId, firstStep });
    return lookups.planEscalation({ incidentId, firstStep, maintenance: true });
  }

  /**
   * A held spell waits on a workflow timer until its window ends (a worker down then: it fires
   * late, never lost), or until a window of the service is ended early or deleted. True: the
   * spell is still TRIGGERED and plans again; false: it ended (never paged) or the run is ending
   * (the hold is carried in the snapshot).
   */
  private async waitOutHold(untilMs: number, sameSpell: () => boolean, stopped: () => boolean): Promise<boolean> {
    const nudges = this.maintenanceNudges;
    if (untilMs > Date.now()) await condition(() => stopped() || !sameSpell() || this.maintenanceNudges !== nudges, untilMs - Date.now());
    if (stopped() || !sameSpell()) return false;
    delete this.memory.heldUntilMs;
    delete this.memory.heldForAlerts;
    return true;
  }

  /**
   * Who a step pages. Since the patch the step's decision (who, from what, who not and why, or
   * nobody) goes on the timeline at a seq reserved first, written by the same lookup: no extra
   * activity. Null: the spell ended before the seq could be reserved.
   */
  private async recipients(cursor: EscalationCursor, now: number, sameSpell: () => boolean): Promise<PageJob[] | null> {
    const lookup = { incidentId: this.incident.incidentId, step: cursor.step, at: new Date(now).toISOString() };
    if (!patched(PAGING_DECISIONS_PATCH)) return lookups.stepRecipients(lookup);
    const decisionSeq = await this.incident.reservePageSeq(sameSpell);
    if (decisionSeq === null) return null;
    return lookups.stepRecipients({ ...lookup, cycle: cursor.cycle, decisionSeq });
  }

  private track(sending: Promise<void>): void {
    this.sending.add(sending);
    void sending.finally(() => this.sending.delete(sending));
  }

  private async send(page: ScheduledPage, stillWanted: () => boolean, requested = false): Promise<void> {
    const seq = await this.incident.reservePageSeq(stillWanted);
    if (seq === null) return;
    const { notificationId, step, dueAtMs, ...job } = page;
    const input: SendPageInput = {
      incidentId: this.incident.incidentId,
      notificationId,
      seq,
      step,
      job,
      dueAt: new Date(dueAtMs).toISOString(),
      ...(requested ? { requested: true as const } : {}),
    };
    // A report may come before the send's own answer is seen: it is kept while the page is sending.
    this.following.add(notificationId);
    try {
      const sent = await this.attempt(input, patched(LOCAL_FIRST_ATTEMPT_PATCH));
      if ('reason' in sent) await lookups.recordPageFailed({ ...input, reason: sent.reason });
      else if (sent.carrier) await this.followCarriers(input, sent.carrier, stillWanted);
    } finally {
      this.following.delete(notificationId);
      this.reported.delete(notificationId);
    }
  }

  /**
   * One page's send: a first attempt inside the workflow task (when `localFirst`), then the
   * retried activity, which finds the notification row a failed first attempt left; its own
   * failure comes after its retries (or a non-retryable error), so it is final either way.
   */
  private async attempt(input: SendPageInput, localFirst: boolean): Promise<SendOutcome | PageFailure> {
    let failure: PageFailure | null = null;
    if (localFirst) {
      const outcome = await firstAttempt.sendPage(input).then((o) => o, pageFailure);
      if (!('reason' in outcome)) return outcome;
      failure = outcome;
    }
    if (failure?.nonRetryable) return failure;
    return delivery.sendPage(input).then((o) => o, pageFailure);
  }

  /**
   * A phone page after a carrier took it (docs/reliability.md, "Carriers"), since
   * CARRIER_FAILOVER_PATCH: while another carrier of its route is left, the run waits on a timer
   * for the carrier's delivery report (a report wakes it at once), and a failed or unconfirmed page
   * goes to the next carrier; once the last carrier's outcome is known, a page that changed
   * carriers gets its line on the timeline. A worker killed meanwhile loses nothing: the wait is a
   * timer, each send an activity that finds the page's row. An incident acknowledged meanwhile
   * (a key pressed on the first call) stops it: no further carrier is tried.
   */
  private async followCarriers(input: SendPageInput, first: CarrierProgress, stillWanted: () => boolean): Promise<void> {
    const setbacks: CarrierSetback[] = first.refusals.map((r) => ({ carrier: r.carrier, kind: 'refused', error: r.error }));
    if (!first.next && setbacks.length === 0) return;
    if (!patched(CARRIER_FAILOVER_PATCH)) return;
    await this.failOver(input, first, setbacks, stillWanted);
  }

  private async failOver(input: SendPageInput, first: CarrierProgress, setbacks: CarrierSetback[], stillWanted: () => boolean): Promise<void> {
    let progress = first;
    for (;;) {
      const id = input.notificationId;
      // A report that came with the carrier's answer (progress.reported) needs no wait.
      if (!progress.reported) await condition(() => this.reported.has(id) || !stillWanted(), progress.waitMs);
      this.reported.delete(id);
      const failOver = progress.next && stillWanted();
      const report = await failoverSteps.carrierReport({ page: input, carrier: progress.carrier, waitMs: progress.waitMs, settle: failOver });
      if (report.status === 'delivered' || !failOver) {
        const final: CarrierFinal = { carrier: progress.carrier, status: report.status, deliveredInMs: report.deliveredInMs, error: report.error };
        return this.recordFailover(input, setbacks, final, progress.waitMs);
      }
      setbacks.push({ carrier: progress.carrier, kind: report.status, error: report.error });
      // The send to the next carrier is remote too (see failoverSteps).
      const next = await this.attempt({ ...input, failover: { tried: progress.tried } }, false);
      if ('reason' in next) {
        const final: CarrierFinal = { carrier: progress.carrier, status: 'failed', deliveredInMs: null, error: next.reason };
        return this.recordFailover(input, setbacks, final, progress.waitMs);
      }
      // Not sent again (a report confirmed the page meanwhile, or the incident moved on): nothing more to follow.
      if (!next.carrier || next.carrier.tried.length <= progress.tried.length)
        return this.recordFailover(input, setbacks.slice(0, -1), finalOf(next, progress), progress.waitMs);
      for (const r of next.carrier.refusals) setbacks.push({ carrier: r.carrier, kind: 'refused', error: r.error });
      progress = next.carrier;
    }
  }

  /** The failover's line, when the page changed carriers: at a seq of its own, whatever the incident did since. */
  private async recordFailover(input: SendPageInput, setbacks: CarrierSetback[], final: CarrierFinal, waitMs: number): Promise<void> {
    if (setbacks.length === 0) return;
    const seq = (await this.incident.reservePageSeq(() => true))!;
    await failoverSteps.recordFailover({ incidentId: input.incidentId, seq, page: input, setbacks, final, waitMs });
  }

  private async awaitAckTimeout(sameSpell: () => boolean, stopped: () => boolean): Promise<void> {
    const timeout = this.memory.plan?.ackTimeoutSeconds;
    if (!timeout) return;
    // Resumed runs start the timeout again: late, never early (continueAsNew is rare while acknowledged).
    const woke = await condition(() => stopped() || !sameSpell(), timeout * 1000);
    if (!woke && sameSpell()) await this.incident.ackTimedOut();
  }
}

/** How the page stood when a failover found nothing more to send. */
function finalOf(o: SendOutcome, progress: CarrierProgress): CarrierFinal {
  const status = o.status === 'delivered' ? 'delivered' : o.status === 'failed' ? 'failed' : 'sent';
  return { carrier: o.provider ?? progress.carrier, status, deliveredInMs: null, error: o.error };
}

interface PageFailure {
  reason: string;
  /** A non-retryable error (the incident has no projection, say): not worth another attempt. */
  nonRetryable: boolean;
}

/**
 * What a failed send says. A remote activity's error arrives wrapped in an ActivityFailure, a
 * local one's as it was thrown; anything that is not a Temporal failure is a bug and fails the
 * workflow task.
 */
function pageFailure(err: unknown): PageFailure {
  if (!(err instanceof TemporalFailure) || err instanceof CancelledFailure) throw err;
  const cause = err instanceof ActivityFailure && err.cause ? err.cause : err;
  return { reason: cause.message, nonRetryable: cause instanceof ApplicationFailure && cause.nonRetryable === true };
}
