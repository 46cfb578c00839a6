import { Context } from '@temporalio/activity';
import type { createActivities } from '../../activities';
import type { RecordTransitionInput } from '../../activities/projections';
import type { PageOutcome } from '../../src/domain/paging/page-outcome';
import type { SendPageInput } from '../../activities/paging/send';
import type { EscalationPlan, PageJob } from '../../src/domain/paging/escalation-plan';
import type { IncidentSnapshot } from '../../src/contracts/workflows';
import { sleep } from '../support/wait';

type Activities = ReturnType<typeof createActivities>;
/** The activities the incident workflow calls (heartbeat ones it never does). */
type IncidentActivities = Pick<
  Activities,
  | 'readIncident'
  | 'recordTransition'
  | 'recordAlertAttached'
  | 'recordAlertsAttached'
  | 'recordResponderEntry'
  | 'responderRecipients'
  | 'planEscalation'
  | 'stepRecipients'
  | 'sendPage'
  | 'recordPageFailed'
>;

/** One stub call: which activity, when it started (wall clock), from which run, with what. */
export interface StubCall {
  name: keyof IncidentActivities;
  at: number;
  runId: string;
  input: unknown;
}

/** A page the workflow started, as sendPage received it. */
export interface SentPage extends SendPageInput {
  at: number;
  runId: string;
}

export interface PagingStubOptions {
  /** What planEscalation answers (each TRIGGERED spell reads it once). */
  plan: EscalationPlan;
  /** What stepRecipients answers for a step index. */
  recipients?: (step: number) => PageJob[];
  /** Replaces the default sendPage (which answers `sent`); `attempt` counts from 1 per notification. */
  sendPage?: (input: SendPageInput, attempt: number) => Promise<PageOutcome>;
  /** Milliseconds recordAlertsAttached takes: keeps the workflow task open while other events queue. */
  attachDelayMs?: number;
  /**
   * Until when (ISO) a maintenance window holds a spell that plans now, if one does: asked by
   * planEscalation under the 'maintenance-hold' patch. Absent: never held.
   */
  heldUntil?: () => string | undefined;
  /** What responderRecipients answers: the pages of responders a person added. */
  responders?: () => PageJob[];
}

/** A page job for tests: one contact of one person. */
export const job = (userId: string, channel: PageJob['channel'] = 'sms', delaySeconds = 0): PageJob => ({
  userId,
  contactMethodId: `${userId}-${channel}`,
  channel,
  address: `${userId}@${channel}`,
  delaySeconds,
});

/** A policy plan: a delay after each step, repeats, optional acknowledge timeout. */
export const policyPlan = (stepDelays: number[], repeat = 0, ackTimeoutSeconds: number | null = null): EscalationPlan => ({
  kind: 'policy',
  stepDelays,
  repeat,
  ackTimeoutSeconds,
});

/**
 * In-memory stand-ins for the incident workflow's activities: they record every call, so tests
 * assert what the workflow asked for and when, without a database or a provider.
 */
export class PagingStubs {
  readonly calls: StubCall[] = [];
  private readonly attempts = new Map<string, number>();

  constructor(private readonly opts: PagingStubOptions) {}

  /** Calls of one activity, in the order they started. */
  of<T = unknown>(name: StubCall['name']): Array<{ at: number; runId: string; input: T }> {
    return this.calls.filter((c) => c.name === name).map((c) => ({ at: c.at, runId: c.runId, input: c.input as T }));
  }

  /** Every sendPage attempt, retries included, in start order. */
  get pages(): SentPage[] {
    return this.of<SendPageInput>('sendPage').map(({ at, runId, input }) => ({ ...input, at, runId }));
  }

  /** The activities to register on a test worker. */
  activities(): IncidentActivities {
    const record = (name: StubCall['name'], input: unknown) =>
      void this.calls.push({ name, at: Date.now(), runId: Context.current().info.workflowExecution?.runId ?? '', input });
    const snapshot = (incidentId: string, status: IncidentSnapshot['status']) => ({ id: incidentId, status }) as IncidentSnapshot;
    return {
      readIncident: async (input) => (record('readIncident', input), snapshot(input.incidentId, 'TRIGGERED')),
      recordTransition: async (input: RecordTransitionInput) => (
        record('recordTransition', input),
        { ...snapshot(input.incidentId, input.to), timelineSeq: input.seq }
      ),
      recordAlertAttached: async (input) => void record('recordAlertAttached', input),
      recordResponderEntry: async (input) => (record('recordResponderEntry', input), { seq: input.seq }),
      recordAlertsAttached: async (input) => {
        record('recordAlertsAttached', input);
        if (this.opts.attachDelayMs) await sleep(this.opts.attachDelayMs);
        return { lastSeq: input.firstSeq + input.alerts.length - 1 };
      },
      // Since the workflow's 'plan-with-first-step' patch, the plan's lookup answers step 1 too:
      // recorded as the stepRecipients call it stands for, so tests count steps either way.
      planEscalation: async ({ firstStep, ...input }) => {
        record('planEscalation', input);
        if (!firstStep || this.opts.plan.stepDelays.length === 0) return this.opts.plan;
        const heldUntil = input.maintenance ? this.opts.heldUntil?.() : undefined;
        if (heldUntil) return { ...this.opts.plan, heldUntil };
        record('stepRecipients', { incidentId: input.incidentId, ...firstStep });
        return { ...this.opts.plan, firstStep: this.opts.recipients?.(0) ?? [] };
      },
      responderRecipients: async (input) => (
        record('responderRecipients', input),
        { jobs: this.opts.responders?.() ?? [], seq: input.seq, message: 'Responders added', data: {} }
      ),
      stepRecipients: async (input) => (record('stepRecipients', input), this.opts.recipients?.(input.step) ?? []),
      sendPage: async (input) => {
        record('sendPage', input);
        const attempt = (this.attempts.get(input.notificationId) ?? 0) + 1;
        this.attempts.set(input.notificationId, attempt);
        if (this.opts.sendPage) return this.opts.sendPage(input, attempt);
        return { status: 'sent', channel: input.job.channel, target: input.job.address, error: null, fallbackReason: null };
      },
      recordPageFailed: async (input) => {
        record('recordPageFailed', input);
        return { status: 'failed', channel: input.job.channel, target: input.job.address, error: input.reason, fallbackReason: null };
      },
    };
  }
}
