/**
 * The incident-event feed's vocabulary (docs/integrations.md): every change to an incident is one
 * event of these types; consumers (outgoing webhooks, chat) receive them as `IncidentEventBody`.
 */
import type { IncidentSnapshot } from '../contracts/workflows';

export const INCIDENT_EVENT_TYPES = [
  'incident.triggered',
  'incident.acknowledged',
  'incident.investigating',
  'incident.resolved',
  'incident.closed',
  'incident.reopened',
  'incident.escalated',
  'incident.alert_attached',
  'page.delivered',
  'page.failed',
  // A responder's actions (docs/responding.md): the timeline entry they wrote, in the feed.
  'incident.note_added',
  'incident.snoozed',
  'incident.responders_added',
  'incident.reassigned',
  'incident.merged',
] as const;
export type IncidentEventType = (typeof INCIDENT_EVENT_TYPES)[number];

/** What a receiver gets: an event of the feed, or a subscription's test `ping`. */
export interface IncidentEventBody {
  id: string;
  type: IncidentEventType | 'ping';
  created_at: string;
  organization_id: string;
  /** The incident as the customer API v1 shows it, as it stood right after the change; null for `ping`. */
  incident: IncidentSnapshot | null;
  actor: { type: string; id: string | null; name: string | null } | null;
  data: Record<string, unknown>;
}

export const isIncidentEventType = (value: string): value is IncidentEventType => (INCIDENT_EVENT_TYPES as readonly string[]).includes(value);

/** The event a status move writes: named after where it went, a reopen as such. */
export function transitionEventType(operation: string, to: string): IncidentEventType {
  if (operation === 'reopen') return 'incident.reopened';
  if (operation === 'reassign') return 'incident.reassigned';
  switch (to) {
    case 'ACKNOWLEDGED':
      return 'incident.acknowledged';
    case 'INVESTIGATING':
      return 'incident.investigating';
    case 'RESOLVED':
      return 'incident.resolved';
    case 'CLOSED':
      return 'incident.closed';
    default:
      // Back to TRIGGERED without a reopen: an acknowledgement that timed out.
      return 'incident.triggered';
  }
}

/** The event a page's outcome writes: handed over or delivered, failed, or none (skipped, still queued). */
export function pageEventType(status: string): IncidentEventType | null {
  if (status === 'sent' || status === 'delivered') return 'page.delivered';
  if (status === 'failed') return 'page.failed';
  return null;
}

/** A paging decision is an escalation from the second step, or any step of a later pass, on. */
export const isEscalation = (stepNumber: number, passNumber: number): boolean => stepNumber > 1 || passNumber > 1;
