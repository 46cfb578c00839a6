/**
 * How an escalation moves (docs/architecture.md, "Paging"), as pure functions the incident workflow runs on its
 * own clock: which step pages next, when, and which pages are due. No I/O, no clocks.
 */
import type { ChannelId } from '../channels';

/** What the workflow needs of a policy: the delay after each step, repeats, ack timeout. */
export interface EscalationPlan {
  /**
   * `policy`: the service's policy; `channels`: a Form B source's channel list; `team`: no
   * policy, so the owning team is paged once; `none`: nobody to page.
   */
  kind: 'policy' | 'channels' | 'team' | 'none';
  /** Seconds to wait after step i before step i+1 (and after the last, before a repeat). */
  stepDelays: number[];
  /** How many more times the whole list runs after the first pass. */
  repeat: number;
  ackTimeoutSeconds: number | null;
}

/** One page to send: a contact of a person, due some seconds after its step paged. */
export interface PageJob {
  userId: string | null;
  contactMethodId: string | null;
  channel: ChannelId;
  address: string;
  delaySeconds: number;
}

/** A page the workflow has scheduled: its notification id is chosen once, so retries reuse it. */
export interface ScheduledPage extends PageJob {
  notificationId: string;
  step: number;
  dueAtMs: number;
}

/** Where an escalation is: carried across continueAsNew so a long incident resumes mid-policy. */
export interface EscalationCursor {
  plan: EscalationPlan;
  /** The step that pages next. */
  step: number;
  /** Completed passes over the steps (0 on the first pass). */
  cycle: number;
  /** When the next step pages; null once every step and repeat has paged. */
  nextStepAtMs: number | null;
  pending: ScheduledPage[];
}

/** What an incident's escalation carries across continueAsNew. */
export interface EscalationMemory {
  /** The plan of the latest TRIGGERED spell (its ack timeout still applies while ACKNOWLEDGED). */
  plan: EscalationPlan | null;
  /** Where the current TRIGGERED spell stands; null when no spell is under way. */
  cursor: EscalationCursor | null;
  /**
   * When a maintenance window holds the current spell (epoch ms): it plans again then, as if it
   * had just opened (docs/maintenance-windows.md). Absent when not held.
   */
  heldUntilMs?: number;
  /**
   * A reassign's chosen targets (docs/responding.md): the next spell's first step pages them
   * instead of the policy's first step. Cleared once that spell is planned.
   */
  reassignTo?: Array<{ type: 'user' | 'team' | 'schedule'; id: string }>;
  /** Pages responders asked for that are not due yet (their rules' delays), whatever the spell. */
  requested?: ScheduledPage[];
  /** The hold is a grouping rule's page_after: an attached alert ends it early (docs/grouping.md). */
  heldForAlerts?: boolean;
}

/** A fresh escalation starting now at step 1 (index 0). */
export function startCursor(plan: EscalationPlan, nowMs: number): EscalationCursor {
  const pagesAtAll = plan.kind !== 'none' && plan.stepDelays.length > 0;
  return { plan, step: 0, cycle: 0, nextStepAtMs: pagesAtAll ? nowMs : null, pending: [] };
}

/** After step `cursor.step` paged at `nowMs`: where the escalation goes next. */
export function advanceStep(cursor: EscalationCursor, nowMs: number): EscalationCursor {
  const { stepDelays, repeat } = cursor.plan;
  const delayMs = stepDelays[cursor.step] * 1000;
  let step = cursor.step + 1;
  let cycle = cursor.cycle;
  if (step >= stepDelays.length) {
    if (cycle >= repeat) return { ...cursor, step, nextStepAtMs: null };
    step = 0;
    cycle += 1;
  }
  return { ...cursor, step, cycle, nextStepAtMs: nowMs + delayMs };
}

/**
 * Step `cursor.step` pages `jobs` at `nowMs`: each page is due its job's delay later, and the
 * escalation moves on. `newId` names each page (the workflow's uuid4, so a replay names them
 * alike). The incident workflow and the what-if replay (./what-if.ts) both step through this.
 */
export function pageStep(cursor: EscalationCursor, jobs: PageJob[], nowMs: number, newId: () => string): EscalationCursor {
  const step = cursor.step;
  const paged: ScheduledPage[] = jobs.map((job) => ({ ...job, notificationId: newId(), step, dueAtMs: nowMs + job.delaySeconds * 1000 }));
  return advanceStep({ ...cursor, pending: [...cursor.pending, ...paged] }, nowMs);
}

/** Splits the pending pages into those due at `nowMs` and the rest. */
export function takeDue(cursor: EscalationCursor, nowMs: number): { due: ScheduledPage[]; cursor: EscalationCursor } {
  const due = cursor.pending.filter((p) => p.dueAtMs <= nowMs);
  return { due, cursor: { ...cursor, pending: cursor.pending.filter((p) => p.dueAtMs > nowMs) } };
}

/** When the escalation next has something to do, or null when it is finished. */
export function nextWakeMs(cursor: EscalationCursor): number | null {
  const times = cursor.pending.map((p) => p.dueAtMs);
  if (cursor.nextStepAtMs !== null) times.push(cursor.nextStepAtMs);
  return times.length ? Math.min(...times) : null;
}
