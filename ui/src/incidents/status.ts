import { LIFECYCLE_OPERATIONS, TRANSITIONS, type LifecycleOperation } from '../../../src/domain/incident-lifecycle';
import type { IncidentStatus } from '../api/types';

/** The buttons an incident in this state shows: the moves the state machine allows (one source: src/domain). */
export const allowedOperations = (status: IncidentStatus): LifecycleOperation[] =>
  LIFECYCLE_OPERATIONS.filter((op) => (TRANSITIONS[op].from as readonly string[]).includes(status));

export const OPERATION_LABELS: Record<LifecycleOperation, string> = {
  acknowledge: 'Acknowledge',
  investigate: 'Investigate',
  resolve: 'Resolve',
  close: 'Close',
  reopen: 'Reopen',
};

export const STATUS_COLORS: Record<IncidentStatus, string> = {
  TRIGGERED: 'red',
  ACKNOWLEDGED: 'yellow',
  INVESTIGATING: 'orange',
  RESOLVED: 'green',
  CLOSED: 'gray',
};
