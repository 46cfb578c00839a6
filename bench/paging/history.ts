import type { Client, WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { tsToMs } from '@temporalio/common/lib/time';
import { incidentWorkflowId } from '../../src/contracts/workflows';
import { concurrently } from '../harness/concurrently';

/** One incident workflow's history, as the client fetches it. */
export type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;

/**
 * Every incident's workflow history, `concurrency` fetches at a time. Read once a phase is over,
 * so the reading adds nothing to what it measured.
 */
export async function fetchHistories(temporal: Client, incidentIds: string[], concurrency = 8): Promise<Map<string, History>> {
  const out = new Map<string, History>();
  await concurrently(incidentIds.length, concurrency, async (i) => {
    out.set(incidentIds[i], await temporal.workflow.getHandle(incidentWorkflowId(incidentIds[i])).fetchHistory());
  });
  return out;
}

/** Per escalation step (index = step; NaN when it did not happen), on the workflow's own clock. */
export interface StepTimes {
  /** When the step woke: when its stepRecipients lookup was scheduled, the `now` the next step is planned from. */
  woke: number[];
  /** When its first page's send activity completed (server time; a local first attempt: when it completed in the worker). */
  sent: number[];
}

/** True when a planEscalation marker's result carries the first step's pages. */
function planAnsweredFirstStep(marker: { details?: Record<string, { payloads?: unknown[] | null } | null> | null } | null | undefined): boolean {
  const [result] = marker?.details?.result?.payloads ?? [];
  if (!result) return false;
  try {
    return Array.isArray(defaultPayloadConverter.fromPayload<{ firstStep?: unknown }>(result as never).firstStep);
  } catch {
    return false;
  }
}

const dense = (a: number[]) => Array.from(a, (t) => t ?? NaN);

export function stepTimes(history: History): StepTimes {
  const woke: number[] = [];
  const sent: number[] = [];
  const sendStep = new Map<number, number>();
  let lookups = 0;
  let localSends = 0;
  for (const e of history.events ?? []) {
    // Local activities leave no input in the history: the n-th stepRecipients marker is step n
    // (one spell, no repeats, one page per step in these runs), scheduled at `woke`; likewise the
    // n-th sendPage marker (a page's first attempt) is step n's page, done at its completion time.
    const marker = e.markerRecordedEventAttributes;
    const data = marker?.markerName === 'core_local_activity' ? marker.details?.data?.payloads?.[0] : undefined;
    if (data) {
      type Ts = { seconds: number | string; nanos?: number };
      const la = defaultPayloadConverter.fromPayload<{ activity_type: string; original_schedule_time?: Ts; complete_time?: Ts }>(data);
      const ms = (t: Ts) => Number(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
      const t = la.original_schedule_time;
      if (la.activity_type === 'stepRecipients' && t) woke[lookups++] = ms(t);
      // Since the workflow's 'plan-with-first-step' patch, the plan's lookup is step 1's too.
      if (la.activity_type === 'planEscalation' && t && planAnsweredFirstStep(marker)) woke[lookups++] = ms(t);
      if (la.activity_type === 'sendPage') {
        const step = localSends++;
        sent[step] ??= la.complete_time ? ms(la.complete_time) : tsToMs(e.eventTime);
      }
    }
    const scheduled = e.activityTaskScheduledEventAttributes;
    const [payload] = scheduled?.input?.payloads ?? [];
    if (payload && scheduled?.activityType?.name === 'stepRecipients') {
      const input = defaultPayloadConverter.fromPayload<{ step: number; at: string }>(payload);
      woke[input.step] = Date.parse(input.at);
    } else if (payload && scheduled?.activityType?.name === 'sendPage') {
      sendStep.set(Number(e.eventId), defaultPayloadConverter.fromPayload<{ step: number }>(payload).step);
    }
    const done = e.activityTaskCompletedEventAttributes;
    const step = done ? sendStep.get(Number(done.scheduledEventId)) : undefined;
    if (step !== undefined && sent[step] === undefined) sent[step] = tsToMs(e.eventTime);
  }
  return { woke: dense(woke), sent: dense(sent) };
}

/** Where a stretch of one workflow's life went: per kind of task, time queued and time running, ms. */
export type TaskSplit = Record<string, { queued: number; ran: number }>;

/**
 * The workflow and activity tasks scheduled within [from, to) (server times; the workflow task
 * that a completion at `to` schedules comes after the stretch): how long each
 * waited on the task queue for the worker (scheduled → started) and ran (started → completed),
 * summed per kind ("workflow task", or the activity's name).
 */
export function taskSplit(history: History, from: number, to: number): TaskSplit {
  const scheduled = new Map<number, { kind: string; at: number }>();
  const started = new Map<number, number>();
  const split: TaskSplit = {};
  const add = (kind: string, queued: number, ran: number) => {
    const s = (split[kind] ??= { queued: 0, ran: 0 });
    s.queued += queued;
    s.ran += ran;
  };
  for (const e of history.events ?? []) {
    const at = tsToMs(e.eventTime);
    const id = Number(e.eventId);
    if (e.workflowTaskScheduledEventAttributes) scheduled.set(id, { kind: 'workflow task', at });
    const activity = e.activityTaskScheduledEventAttributes?.activityType?.name;
    if (activity) scheduled.set(id, { kind: activity, at });
    const start = e.workflowTaskStartedEventAttributes ?? e.activityTaskStartedEventAttributes;
    if (start) started.set(Number(start.scheduledEventId), at);
    const end = e.workflowTaskCompletedEventAttributes ?? e.activityTaskCompletedEventAttributes;
    if (!end) continue;
    const s = scheduled.get(Number(end.scheduledEventId));
    const begun = started.get(Number(end.scheduledEventId));
    if (s && begun !== undefined && s.at >= from && s.at < to) add(s.kind, begun - s.at, at - begun);
  }
  return split;
}

/** When the workflow execution started (its first event), server time. */
export function startedAt(history: History): number {
  return tsToMs(history.events?.[0]?.eventTime);
}

/** What one workflow's history holds: events, workflow tasks, activities (local and remote). */
export interface HistoryCounts {
  events: number;
  workflowTasks: number;
  localActivities: number;
  activities: number;
}

const activityTypeOfMarker = (e: NonNullable<History['events']>[number]): string | undefined => {
  const marker = e.markerRecordedEventAttributes;
  const data = marker?.markerName === 'core_local_activity' ? marker.details?.data?.payloads?.[0] : undefined;
  return data ? defaultPayloadConverter.fromPayload<{ activity_type?: string }>(data).activity_type : undefined;
};

/**
 * Counts in the history up to the first page's send activity done (its local-activity marker, or
 * its ActivityTaskCompleted when it ran as a remote activity), or in the whole history when there
 * was none (`sent: false`). Workflow tasks are counted as completed ones (a failed or timed-out
 * task was redone); activities as scheduled (remote) and as markers (local: one per completed
 * local activity, retried attempts inside it not counted).
 */
export function countToFirstSend(history: History): HistoryCounts & { sent: boolean } {
  const c = { events: 0, workflowTasks: 0, localActivities: 0, activities: 0, sent: false };
  const sendScheduled = new Set<number>();
  for (const e of history.events ?? []) {
    c.events++;
    if (e.workflowTaskCompletedEventAttributes) c.workflowTasks++;
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) {
      c.activities++;
      if (scheduled.activityType?.name === 'sendPage') sendScheduled.add(Number(e.eventId));
    }
    const local = activityTypeOfMarker(e);
    if (local !== undefined) c.localActivities++;
    const done = e.activityTaskCompletedEventAttributes;
    if (local === 'sendPage' || (done && sendScheduled.has(Number(done.scheduledEventId)))) {
      c.sent = true;
      return c;
    }
  }
  return c;
}

/** Means per history of the counts, over the histories that reached their first send. */
export function meanCounts(histories: History[]): HistoryCounts & { histories: number } {
  const sent = histories.map(countToFirstSend).filter((c) => c.sent);
  const mean = (f: (c: HistoryCounts) => number) => (sent.length ? sent.reduce((s, c) => s + f(c), 0) / sent.length : NaN);
  return {
    histories: sent.length,
    events: mean((c) => c.events),
    workflowTasks: mean((c) => c.workflowTasks),
    localActivities: mean((c) => c.localActivities),
    activities: mean((c) => c.activities),
  };
}

/** Per history, on average: events, workflow tasks completed, local activity markers, activities and timers scheduled. */
export function historyCounts(histories: History[]): Record<string, number> {
  const sum: Record<string, number> = { events: 0, workflowTasks: 0, localActivities: 0, activities: 0, timers: 0, markers: 0 };
  for (const h of histories) {
    for (const e of h.events ?? []) {
      sum.events++;
      if (e.workflowTaskCompletedEventAttributes) sum.workflowTasks++;
      if (e.activityTaskScheduledEventAttributes) sum.activities++;
      if (e.timerStartedEventAttributes) sum.timers++;
      if (e.markerRecordedEventAttributes) {
        sum.markers++;
        if (e.markerRecordedEventAttributes.markerName === 'core_local_activity') sum.localActivities++;
      }
    }
  }
  const n = Math.max(1, histories.length);
  return Object.fromEntries(Object.entries(sum).map(([k, v]) => [k, Math.round((v / n) * 100) / 100]));
}
