/**
 * The incident state machine (docs/architecture.md, "Incidents") as one pure module, shared by the workflow,
 * its update validators and the API. No I/O, no clocks: safe inside the workflow sandbox.
 */
export const INCIDENT_STATUSES = ['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING', 'RESOLVED', 'CLOSED'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const LIFECYCLE_OPERATIONS = ['acknowledge', 'investigate', 'resolve', 'close', 'reopen'] as const;
export type LifecycleOperation = (typeof LIFECYCLE_OPERATIONS)[number];

/**
 * Moves the system makes on its own, never offered to callers: an acknowledgement that was not
 * followed up within the policy's acknowledge timeout returns the incident to TRIGGERED; an
 * incident left RESOLVED for `AUTO_CLOSE_HOURS` closes.
 */
export type SystemOperation = 'ack_timeout' | 'auto_close' | 'snooze_end';
/** Operations of a responder's that move the status besides the lifecycle's (docs/responding.md). */
export type ResponderOperation = 'reassign' | 'merge';
/** Every operation that can write a status change. */
export type TransitionOperation = LifecycleOperation | SystemOperation | ResponderOperation;

/** The ack-timeout move: only an incident still ACKNOWLEDGED goes back to TRIGGERED. */
export function decideAckTimeout(status: IncidentStatus): { kind: 'move'; from: IncidentStatus; to: IncidentStatus } | { kind: 'noop' } {
  return status === 'ACKNOWLEDGED' ? { kind: 'move', from: status, to: 'TRIGGERED' } : { kind: 'noop' };
}

/** The end of a snooze (docs/responding.md): only an incident still ACKNOWLEDGED goes back to TRIGGERED. */
export const decideSnoozeEnd = decideAckTimeout;

/** Whether people may be added to an incident in this state (an open one only). */
export function respondersRefusal(status: IncidentStatus): string | null {
  return status === 'RESOLVED' || status === 'CLOSED' ? `cannot add responders to an incident that is ${status}; allowed while it is open` : null;
}

/** A reassign: from TRIGGERED or ACKNOWLEDGED, to TRIGGERED with a new escalation spell. */
export function decideReassign(status: IncidentStatus): { kind: 'move'; from: IncidentStatus; to: IncidentStatus } | { kind: 'invalid'; message: string } {
  return status === 'TRIGGERED' || status === 'ACKNOWLEDGED'
    ? { kind: 'move', from: status, to: 'TRIGGERED' }
    : { kind: 'invalid', message: `cannot reassign an incident that is ${status}; allowed from TRIGGERED, ACKNOWLEDGED` };
}

/** Snoozes are whole minutes, from one to a day. */
export const SNOOZE_MINUTES = { min: 1, max: 1440 } as const;

/** A snooze's validation: only an ACKNOWLEDGED incident snoozes; null when it may, else why not. */
export function snoozeRefusal(status: IncidentStatus): string | null {
  return status === 'ACKNOWLEDGED' ? null : `cannot snooze an incident that is ${status}; allowed from ACKNOWLEDGED`;
}

/** The auto-close move: only an incident still RESOLVED closes. */
export function decideAutoClose(status: IncidentStatus): { kind: 'move'; from: IncidentStatus; to: IncidentStatus } | { kind: 'noop' } {
  return status === 'RESOLVED' ? { kind: 'move', from: status, to: 'CLOSED' } : { kind: 'noop' };
}

/** How long a RESOLVED incident waits before it closes by itself, unless configured (docs/architecture.md, "Incidents"). */
export const DEFAULT_AUTO_CLOSE_HOURS = 72;

/** A wait as people read it on the timeline: whole hours as `72 h`, shorter ones in minutes or seconds. */
export function formatWait(seconds: number): string {
  const s = Math.round(seconds);
  if (s >= 3600 && s % 3600 === 0) return `${s / 3600} h`;
  if (s >= 3600) return `${(s / 3600).toFixed(1)} h`;
  if (s >= 60 && s % 60 === 0) return `${s / 60} min`;
  return `${s} s`;
}

interface Rule {
  from: readonly IncidentStatus[];
  to: IncidentStatus;
}

export const TRANSITIONS: Readonly<Record<LifecycleOperation, Rule>> = {
  acknowledge: { from: ['TRIGGERED'], to: 'ACKNOWLEDGED' },
  investigate: { from: ['TRIGGERED', 'ACKNOWLEDGED'], to: 'INVESTIGATING' },
  resolve: { from: ['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING'], to: 'RESOLVED' },
  close: { from: ['RESOLVED'], to: 'CLOSED' },
  reopen: { from: ['RESOLVED', 'CLOSED'], to: 'TRIGGERED' },
};

/** What an operation does to an incident in a given state. */
export type TransitionOutcome =
  | { kind: 'move'; from: IncidentStatus; to: IncidentStatus }
  | { kind: 'noop'; status: IncidentStatus }
  | { kind: 'invalid'; status: IncidentStatus; message: string };

/** Decides an operation: a move, a no-op (repeating what produced the state) or invalid. */
export function decideTransition(status: IncidentStatus, op: LifecycleOperation): TransitionOutcome {
  const rule = TRANSITIONS[op];
  if (rule.from.includes(status)) return { kind: 'move', from: status, to: rule.to };
  // Repeating the operation that produced the current state is answered as success.
  // reopen produces TRIGGERED, but so does creation: acknowledging twice is idempotent,
  // reopening a TRIGGERED incident is not something the caller can have meant to repeat.
  if (rule.to === status && op !== 'reopen') return { kind: 'noop', status };
  return {
    kind: 'invalid',
    status,
    message: `cannot ${op} an incident that is ${status}; allowed from ${rule.from.join(', ')}`,
  };
}

/** True once the incident needs no workflow any more (the run completes). */
export const isTerminal = (status: IncidentStatus): boolean => status === 'CLOSED';

/** Timestamp columns an operation sets (or clears, on reopen). */
export function timestampChanges(op: TransitionOperation, at: string): Partial<Record<'acknowledged_at' | 'resolved_at' | 'closed_at', string | null>> {
  switch (op) {
    case 'acknowledge':
      return { acknowledged_at: at };
    case 'investigate':
      return {};
    case 'resolve':
    case 'merge':
      return { resolved_at: at };
    case 'close':
    case 'auto_close':
      return { closed_at: at };
    case 'reopen':
      return { acknowledged_at: null, resolved_at: null, closed_at: null };
    case 'ack_timeout':
    case 'snooze_end':
    case 'reassign':
      return { acknowledged_at: null };
  }
}
