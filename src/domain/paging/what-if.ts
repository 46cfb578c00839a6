/**
 * What-if replay (docs/what-if.md): who a policy would have paged for an incident that really
 * happened. It steps through the escalation with the incident workflow's own pure functions
 * (./escalation-plan.ts: startCursor, pageStep, takeDue, nextWakeMs), waking when the workflow
 * would, so the replay of the live policy pages what the workflow paged. No I/O, no clocks.
 */
import type { ChannelId } from '../channels';
import { nextWakeMs, pageStep, startCursor, takeDue, type EscalationPlan, type PageJob } from './escalation-plan';

/** One page the replay sends: to whom, how, when, at which step. */
export interface SimulatedPage {
  userId: string | null;
  channel: ChannelId;
  contactMethodId: string | null;
  atMs: number;
  step: number;
}

/** A TRIGGERED spell of a past incident: from when it opened until a person or its sender moved it on. */
export interface PastSpell {
  openedAtMs: number;
  /** When it stopped paging (acknowledged, resolved or closed); null: it was still TRIGGERED at `untilMs`. */
  endedAtMs: number | null;
  /** Where the replay stops when the spell did not end: the range's end, or now. */
  untilMs: number;
}

/** The pages of step `step` resolved at `atMs`: today's schedules, teams and each person's rules. */
export type StepJobs = (step: number, atMs: number) => PageJob[];

/** The most steps one replay takes: a policy pages at most 20 steps × 10 passes (config.ts), so this only guards a bad plan. */
const MAX_WAKES = 10_000;

/**
 * The pages `plan` sends during `spell`: a page is sent when it falls due before the spell ended
 * (the workflow stops paging at the move that ends it, and sends nothing due after).
 */
export function replaySpell(plan: EscalationPlan, spell: PastSpell, jobsAt: StepJobs): SimulatedPage[] {
  return [...replayPages(plan, spell, jobsAt)];
}

/**
 * replaySpell one page at a time, in order: a caller that bounds the replay (docs/what-if.md,
 * "Bounds") stops taking them when its budget is spent, and nothing further is computed.
 */
export function* replayPages(plan: EscalationPlan, spell: PastSpell, jobsAt: StepJobs): Generator<SimulatedPage, void, undefined> {
  const stopAt = spell.endedAtMs ?? spell.untilMs;
  let cursor = startCursor(plan, spell.openedAtMs);
  for (let wakes = 0; wakes < MAX_WAKES; wakes++) {
    const now = nextWakeMs(cursor);
    if (now === null || now > stopAt || (spell.endedAtMs !== null && now >= spell.endedAtMs)) break;
    if (cursor.nextStepAtMs !== null && cursor.nextStepAtMs <= now) cursor = pageStep(cursor, jobsAt(cursor.step, now), now, () => '');
    const taken = takeDue(cursor, now);
    cursor = taken.cursor;
    for (const p of taken.due) yield { userId: p.userId, channel: p.channel, contactMethodId: p.contactMethodId, atMs: p.dueAtMs, step: p.step };
  }
}

/** Night, for counting pages that woke someone: 22:00 to 07:00 on their own clock. */
export function isNight(atMs: number, timeZone: string): boolean {
  const hour = Number(hourIn(timeZone).format(new Date(atMs)));
  return hour >= 22 || hour < 7;
}

/** One formatter per zone: making one costs far more than using it. */
const hourFormats = new Map<string, Intl.DateTimeFormat>();
function hourIn(timeZone: string): Intl.DateTimeFormat {
  let f = hourFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone });
    hourFormats.set(timeZone, f);
  }
  return f;
}
