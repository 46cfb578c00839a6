/**
 * What every chat message shares, whatever the provider draws it as (docs/chat.md): the feed
 * events worth a message, and who is being paged, in one line. Pure.
 */
import type { IncidentEventType } from '../domain/incident-events';
import type { ChatMessageContext } from './types';

/** The feed events that post a message: a new incident and every status move (not pages, alerts, closing). */
export const INCIDENT_STATUS_EVENT_TYPES = [
  'incident.triggered',
  'incident.acknowledged',
  'incident.investigating',
  'incident.resolved',
  'incident.reopened',
  'incident.escalated',
] as const satisfies readonly IncidentEventType[];

/** Who is being paged, in one line: `Ada, Grace (step 2)`; the policy's name when nobody is known. */
export function pagingLine(context: ChatMessageContext): string {
  if (context.paging && context.paging.people.length > 0) {
    const shown = context.paging.people.slice(0, 5).join(', ');
    const more = context.paging.people.length > 5 ? ` and ${context.paging.people.length - 5} more` : '';
    return `${shown}${more} (step ${context.paging.stepNumber})`;
  }
  return context.policyName ? `escalation policy "${context.policyName}"` : '—';
}
