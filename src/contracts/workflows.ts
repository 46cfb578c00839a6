/**
 * Every message, query and search-attribute key of Klaxon's workflows. Wire names are
 * recorded in histories: never rename them.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { IncidentStatus, LifecycleOperation } from '../domain/incident-lifecycle';
import type { EscalationMemory } from '../domain/paging/escalation-plan';
import type { Severity } from '../domain/severity';

export const TASK_QUEUE = 'klaxon';

export const incidentWorkflowId = (incidentId: string): string => `incident-${incidentId}`;

/** Who asked for a lifecycle change, and through which surface. */
export interface Actor {
  type: 'user' | 'system';
  id: string | null;
  via: string;
}

/** Ingestion as an actor: opens incidents from alerts, and acknowledges and resolves them when the sender does. */
export const INGEST_ACTOR: Actor = { type: 'system', id: null, via: 'ingest' };

/** The system as an actor when a RESOLVED incident closes by itself after AUTO_CLOSE_HOURS. */
export const AUTO_CLOSE_ACTOR: Actor = { type: 'system', id: null, via: 'auto_close' };

/** The workflow input; also the state a run resumes from after continueAsNew or a reopen. */
export interface IncidentWorkflowInput {
  incidentId: string;
  organizationId: string;
  serviceId: string | null;
  severity: Severity;
  status: IncidentStatus;
  /** The last timeline sequence number written for this incident. */
  seq: number;
  /** History length past which the run continues as new; tests lower it. */
  historyLimit?: number;
  /**
   * Alert event ids already applied (the most recent ones), carried across continueAsNew. A run
   * started for an incident whose earlier runs completed reads them (and the rest of its state)
   * from the projection.
   */
  appliedEventIds?: string[];
  /** The seq of the incident's last reopen, carried across continueAsNew. */
  reopenedAtSeq?: number;
  /** Where paging stood, carried across continueAsNew. */
  escalation?: EscalationMemory;
  /** Seconds a RESOLVED incident waits before it closes by itself (AUTO_CLOSE_HOURS; 72 h when absent). */
  autoCloseSeconds?: number;
  /** When the pending automatic close is due (epoch ms), carried across continueAsNew while RESOLVED. */
  autoCloseAtMs?: number;
  /** When a snooze of the ACKNOWLEDGED incident ends (epoch ms), carried across continueAsNew. */
  snoozedUntilMs?: number;
}

/**
 * How many recent alert event ids an incident workflow remembers, to ignore redeliveries. The
 * outbox relay never reads more rows than this in one pass, so a pass redelivered whole (it
 * landed, but its rows could not be marked delivered) is still ignored whole.
 */
export const APPLIED_EVENTS_WINDOW = 2000;

/** An accepted alert event, delivered by the ingestion outbox (at least once). */
export interface AlertReceived {
  eventId: string;
  /**
   * `opened` made the incident; `attached` joined an open one by dedup_key; `resolved`: the
   * sender resolved the incident's last active alert, so the incident resolves; `acknowledged`:
   * the sender acknowledged it (PagerDuty's and Opsgenie's senders, docs/compat-intake.md), so a
   * TRIGGERED incident acknowledges. Runs from before `acknowledged` attached it as an alert.
   */
  kind: 'opened' | 'attached' | 'resolved' | 'acknowledged';
  title: string;
  /**
   * For `resolved`: the incident's last timeline seq when the resolve was accepted. A reopen
   * written after that seq makes the resolve stale: it must not resolve the reopened incident.
   */
  acceptedAtSeq?: number;
  /** For `acknowledged`: how the sender asked (`via PagerDuty Events API`), said on the timeline. */
  detail?: string;
}

/** A fact: an alert was accepted for this incident. Delivered at least once; applied once. */
export const alertReceivedSignal = defineSignal<[AlertReceived]>('alertReceived');

/** Several accepted events of one incident, in acceptance order: one signal for a whole batch. */
export interface AlertsReceived {
  events: AlertReceived[];
}

/**
 * Facts: these alerts were accepted for this incident. How the outbox relay delivers since
 * batching (one signal per incident per pass, not one per event); applied once each, in order.
 */
export const alertsReceivedSignal = defineSignal<[AlertsReceived]>('alertsReceived');

/** A responder asked to page the next escalation step now (voice call, key 2). */
export const escalateNowSignal = defineSignal<[{ actor: Actor }]>('escalateNow');

/**
 * A maintenance window of the incident's service was ended early or deleted: an escalation held
 * by one plans again at once (docs/maintenance-windows.md). Without it, it waits out its timer.
 */
export const maintenanceChangedSignal = defineSignal<[]>('maintenanceChanged');

/**
 * A carrier reported on a phone page (delivered or failed): a workflow waiting to fail the page
 * over (docs/reliability.md, "Carriers") looks at once instead of at the end of its wait.
 */
export const pageDeliveryReportSignal = defineSignal<[{ notificationId: string }]>('pageDeliveryReport');

/** What a lifecycle update answers: the incident as projected after the change. */
export interface IncidentSnapshot {
  id: string;
  organization_id: string;
  number: number;
  title: string;
  description: string | null;
  severity: Severity;
  status: IncidentStatus;
  service_id: string | null;
  owning_team_id: string;
  dedup_key: string | null;
  alert_count: number;
  created_at: string;
  acknowledged_at: string | null;
  resolved_at: string | null;
  closed_at: string | null;
  updated_at: string;
  /** Present on an incident a grouping rule opened (docs/grouping.md): the rule and the group key. */
  grouping?: { rule: string; key: string };
  /** Present on a source's storm incident: that source. */
  storm_source_id?: string;
}

export interface LifecycleUpdateInput {
  actor: Actor;
  /**
   * When the caller stops waiting (ISO time; the API's deadline): the workflow gives up on a
   * move it cannot write before then, so a caller told 503 finds nothing moved.
   */
  answerBy?: string;
}

/** What the `incidentState` query answers: the status and the last timeline seq written. */
export interface IncidentStateResult {
  status: IncidentStatus;
  seq: number;
}

/** One update per lifecycle operation, so validators and histories name the operation. */
export const lifecycleUpdates: Readonly<Record<LifecycleOperation, ReturnType<typeof defineUpdate<IncidentSnapshot, [LifecycleUpdateInput]>>>> = {
  acknowledge: defineUpdate<IncidentSnapshot, [LifecycleUpdateInput]>('acknowledgeIncident'),
  investigate: defineUpdate<IncidentSnapshot, [LifecycleUpdateInput]>('investigateIncident'),
  resolve: defineUpdate<IncidentSnapshot, [LifecycleUpdateInput]>('resolveIncident'),
  close: defineUpdate<IncidentSnapshot, [LifecycleUpdateInput]>('closeIncident'),
  reopen: defineUpdate<IncidentSnapshot, [LifecycleUpdateInput]>('reopenIncident'),
};

export const incidentStateQuery = defineQuery<IncidentStateResult>('incidentState');

/** A responder's entry as the workflow wrote it (docs/responding.md): where, when, what it said. */
export interface ResponderEntryResult {
  seq: number;
  type: 'note' | 'snooze' | 'responders_added' | 'reassigned' | 'merged';
  at: string;
  message: string;
  data: Record<string, unknown>;
}

/** A note for the timeline (Markdown, at most NOTE_MAX_CHARS characters). */
export interface AddNoteInput extends LifecycleUpdateInput {
  text: string;
}
export const NOTE_MAX_CHARS = 10_000;
/** A responder's note: the workflow writes it on the timeline and in the incident-event feed. */
export const addNoteUpdate = defineUpdate<ResponderEntryResult, [AddNoteInput]>('addIncidentNote');

export interface SnoozeInput extends LifecycleUpdateInput {
  minutes: number;
}
/** What a snooze answers: its entry, and when the incident returns to TRIGGERED. */
export interface SnoozeResult {
  entry: ResponderEntryResult;
  snoozed_until: string;
}
/**
 * Snooze an ACKNOWLEDGED incident: a workflow timer returns it to TRIGGERED (paging again from the
 * first step) when it ends, unless it moved meanwhile. A second snooze replaces the first.
 */
export const snoozeIncidentUpdate = defineUpdate<SnoozeResult, [SnoozeInput]>('snoozeIncident');

/** Who a responder asks to page: a member, whoever a schedule has on call, or a team's members. */
export interface ResponderTarget {
  type: 'user' | 'team' | 'schedule';
  id: string;
}

export interface RespondersInput extends LifecycleUpdateInput {
  targets: ResponderTarget[];
  /** Said on the timeline with who asked (at most RESPONDER_MESSAGE_MAX_CHARS). */
  message?: string;
}
export const RESPONDER_TARGETS_MAX = 20;
export const RESPONDER_MESSAGE_MAX_CHARS = 1000;

/** What adding responders answers: the entry (who asked, whom it reached) and how many pages were scheduled. */
export interface RespondersResult {
  entry: ResponderEntryResult;
  pages: number;
}
/**
 * Page more people now, through their notification rules, whatever the escalation is doing: an
 * open incident (TRIGGERED, ACKNOWLEDGED, INVESTIGATING) only; its pages stop once it is resolved.
 */
export const addRespondersUpdate = defineUpdate<RespondersResult, [RespondersInput]>('addIncidentResponders');
/**
 * Reassign a TRIGGERED or ACKNOWLEDGED incident: it becomes TRIGGERED (a new spell) and its
 * escalation restarts with the chosen targets as the first step, the policy's later steps after.
 */
export const reassignIncidentUpdate = defineUpdate<IncidentSnapshot, [RespondersInput]>('reassignIncident');

export interface MergeIntoInput extends LifecycleUpdateInput {
  into: { id: string; number: number };
}
/** What merging an incident away answers: it, resolved, and how many alerts moved. */
export interface MergedAwayResult {
  incident: IncidentSnapshot;
  alerts_moved: number;
}
/**
 * Merge this open incident into another (docs/responding.md, "Merge"): its alerts move there and
 * it resolves "merged into #N" in one write; its escalation stops as any resolve stops it.
 */
export const mergeIntoUpdate = defineUpdate<MergedAwayResult, [MergeIntoInput]>('mergeIncidentInto');

export interface IncidentMergedInput extends LifecycleUpdateInput {
  merged: { id: string; number: number; alerts_moved: number };
}
/** The incident merged into records it (an entry keyed by the merged incident: written once however often asked). */
export const incidentMergedUpdate = defineUpdate<ResponderEntryResult, [IncidentMergedInput]>('recordIncidentMerged');

/** The system as an actor when a snooze ends. */
export const SNOOZE_ACTOR: Actor = { type: 'system', id: null, via: 'snooze' };

/** ApplicationFailure type of a rejected transition; the API maps it to 409 invalid_transition. */
export const INVALID_TRANSITION = 'InvalidTransition';

/**
 * ApplicationFailure type of a lifecycle update whose projection write could not be done in time
 * (Postgres away): nothing moved; the API maps it to 503 with Retry-After.
 */
export const INCIDENT_STORE_UNAVAILABLE = 'IncidentStoreUnavailable';

export const searchAttributes = {
  organizationId: defineSearchAttributeKey('KlaxonOrganizationId', SearchAttributeType.KEYWORD),
  serviceId: defineSearchAttributeKey('KlaxonServiceId', SearchAttributeType.KEYWORD),
  status: defineSearchAttributeKey('KlaxonIncidentStatus', SearchAttributeType.KEYWORD),
  severity: defineSearchAttributeKey('KlaxonSeverity', SearchAttributeType.KEYWORD),
};

/** Names and types to register on a Temporal server (dev server flags, compose set-up). */
export const SEARCH_ATTRIBUTE_REGISTRATIONS: ReadonlyArray<{ name: string; type: 'Keyword' }> = Object.values(searchAttributes).map((key) => ({
  name: key.name,
  type: 'Keyword' as const,
}));

export const heartbeatWorkflowId = (heartbeatId: string): string => `heartbeat-${heartbeatId}`;

/** The heartbeat workflow's input; also its state across continueAsNew. */
export interface HeartbeatWorkflowInput {
  heartbeatId: string;
  periodSeconds: number;
  graceSeconds: number;
  paused: boolean;
  /** The incident a missed check-in opened, until a ping resolves it. */
  missedIncidentId: string | null;
}

/** A check-in arrived (a fact). */
export const heartbeatPingSignal = defineSignal<[]>('heartbeatPing');
/** The heartbeat was paused or resumed. */
export const heartbeatPauseSignal = defineSignal<[{ paused: boolean }]>('heartbeatPause');
export const heartbeatStateQuery = defineQuery<{ paused: boolean; missedIncidentId: string | null; pings: number }>('heartbeatState');

/**
 * The Temporal Schedule that runs `retentionWorkflow` hourly; also the prefix of its runs'
 * workflow ids (the schedule appends the time).
 */
export const RETENTION_SCHEDULE_ID = 'klaxon-retention';

/** The retention workflow's input. */
export interface RetentionWorkflowInput {
  /** Purge activities one run calls at most, each with its own time budget (default 60). */
  maxPasses?: number;
}

export const monitorWorkflowId = (monitorId: string): string => `monitor-${monitorId}`;

/** When a monitor checks: how often, and how long one check may take. */
export interface MonitorSchedule {
  intervalSeconds: number;
  timeoutSeconds: number;
}

/** The monitor workflow's input; also its state across continueAsNew. */
export interface MonitorWorkflowInput extends MonitorSchedule {
  monitorId: string;
  paused: boolean;
  /** Checks one run makes before continuing as new (default 500); tests lower it. */
  checksPerRun?: number;
}

/** The monitor's interval or timeout changed (the rest of its settings are read at each check). */
export const monitorScheduleSignal = defineSignal<[MonitorSchedule]>('monitorSchedule');
/** The monitor was paused or resumed. */
export const monitorPauseSignal = defineSignal<[{ paused: boolean }]>('monitorPause');
export const monitorStateQuery = defineQuery<MonitorSchedule & { paused: boolean; checks: number }>('monitorState');

export const drillWorkflowId = (drillId: string): string => `drill-${drillId}`;

/** The Temporal Schedule of a recurring drill; also the prefix of its runs' workflow ids. */
export const drillScheduleTemporalId = (drillScheduleId: string): string => `drill-schedule-${drillScheduleId}`;

/** A drill already written (started from the API): the results to send, and how long acknowledgements count. */
export interface OpenedDrillInput {
  drillId: string;
  resultIds: string[];
  ackWindowSeconds: number;
}

/**
 * The drill workflow's input (docs/drills.md): a drill the API wrote, or a recurring drill's
 * schedule, for which the workflow writes the drill first (who is on call is read at firing time).
 */
export type DrillWorkflowInput = OpenedDrillInput | { drillScheduleId: string };
