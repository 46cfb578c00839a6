/**
 * The Adaptive Card (1.4) Klaxon posts to a Microsoft Teams Workflows webhook, in the Workflows
 * "message with attachments" envelope (docs/chat.md, "Microsoft Teams"). Pure: what the card says
 * and which links it carries are decided here, the links themselves are made by the caller.
 */
import { INCIDENT_STATUS_EVENT_TYPES } from '../chat-message';

/** The feed events that post a card: a new incident and every status move. */
export const TEAMS_EVENT_TYPES = INCIDENT_STATUS_EVENT_TYPES;
export type TeamsEventType = (typeof TEAMS_EVENT_TYPES)[number];

export const isTeamsEventType = (type: string): type is TeamsEventType => (TEAMS_EVENT_TYPES as readonly string[]).includes(type);

/** Longest incident title a card shows (Teams refuses messages over 28 KB; a title is the only long field). */
export const CARD_TITLE_MAX = 300;
/** People named under "Paging now" at most; the rest are counted. */
const PAGED_SHOWN = 5;

/** What one incident card shows. */
export interface IncidentCardInput {
  type: TeamsEventType;
  incident: { number: number; title: string; severity: string; status: string };
  serviceName: string | null;
  /** The service's escalation policy, when it has one. */
  policyName: string | null;
  /** Who the latest paging decision paged (names or emails), and at which step; null when none is known. */
  paging: { stepNumber: number; people: string[] } | null;
  /** Who made the change, as the feed names them (a member, or `ingest`, `escalation`, …). */
  actorName: string | null;
  /** The escalation step of an `incident.escalated` event. */
  stepNumber?: number | null;
  /** The event's `data.operation`: `ack_timeout` makes an `incident.triggered` a return, not a new incident. */
  operation?: string | null;
  /** When the change happened (ISO). */
  at: string;
  links: {
    incident: string;
    /** Signed action links; null hides the button (the incident is past that move). */
    acknowledge: string | null;
    resolve: string | null;
  };
}

type Element = Record<string, unknown>;

/** An Adaptive Card in the Workflows envelope: what is POSTed to the webhook URL. */
export interface TeamsMessage {
  type: 'message';
  attachments: Array<{ contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: AdaptiveCard }>;
}

export interface AdaptiveCard {
  $schema: 'http://adaptivecards.io/schemas/adaptive-card.json';
  type: 'AdaptiveCard';
  version: '1.4';
  body: Element[];
  actions: Element[];
  msteams?: { width: 'Full' };
}

const HEADLINES: Record<TeamsEventType, string> = {
  'incident.triggered': 'New incident',
  'incident.acknowledged': 'Acknowledged',
  'incident.investigating': 'Investigating',
  'incident.resolved': 'Resolved',
  'incident.reopened': 'Reopened',
  'incident.escalated': 'Escalated',
};

/** A status's color in Adaptive Card terms. */
export function statusColor(status: string): 'Attention' | 'Warning' | 'Good' | 'Default' {
  switch (status) {
    case 'TRIGGERED':
      return 'Attention';
    case 'ACKNOWLEDGED':
    case 'INVESTIGATING':
      return 'Warning';
    case 'RESOLVED':
    case 'CLOSED':
      return 'Good';
    default:
      return 'Default';
  }
}

/** The incident's title cut to CARD_TITLE_MAX characters. */
export const cardTitle = (title: string): string => (title.length > CARD_TITLE_MAX ? `${title.slice(0, CARD_TITLE_MAX - 1)}…` : title);

/** An ISO instant as `2026-11-27 05:20 UTC` (Teams shows it as written). */
export function cardTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const text = (value: string, extra: Element = {}): Element => ({ type: 'TextBlock', text: value, wrap: true, ...extra });
const openUrl = (title: string, url: string): Element => ({ type: 'Action.OpenUrl', title, url });

/** Who is being paged, in one line: `Ada, Grace (step 2)`; the policy's name when nobody is known. */
export function pagingLine(input: Pick<IncidentCardInput, 'paging' | 'policyName'>): string | null {
  const { paging, policyName } = input;
  if (paging && paging.people.length > 0) {
    const shown = paging.people.slice(0, PAGED_SHOWN).join(', ');
    const more = paging.people.length > PAGED_SHOWN ? ` and ${paging.people.length - PAGED_SHOWN} more` : '';
    return `${shown}${more} (step ${paging.stepNumber})`;
  }
  if (policyName) return `escalation policy "${policyName}"`;
  return null;
}

/** Wraps a card in the Workflows "message with attachments" envelope. */
export function teamsMessage(card: AdaptiveCard): TeamsMessage {
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] };
}

const card = (body: Element[], actions: Element[]): AdaptiveCard => ({
  $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
  type: 'AdaptiveCard',
  version: '1.4',
  body,
  actions,
  msteams: { width: 'Full' },
});

/** The card of one incident event: headline, title, colored status, facts, and the buttons that still apply. */
export function incidentCard(input: IncidentCardInput): TeamsMessage {
  const { incident } = input;
  const headline =
    input.type === 'incident.escalated' && input.stepNumber
      ? `Escalated to step ${input.stepNumber}`
      : input.type === 'incident.triggered' && input.operation === 'ack_timeout'
        ? 'Triggered again: the acknowledgement timed out'
        : HEADLINES[input.type];
  const facts: Array<{ title: string; value: string }> = [
    { title: 'Severity', value: incident.severity },
    { title: 'Service', value: input.serviceName ?? '(no service)' },
  ];
  const paging = pagingLine(input);
  if (paging && (incident.status === 'TRIGGERED' || input.type === 'incident.escalated')) facts.push({ title: 'Paging now', value: paging });
  else if (input.policyName) facts.push({ title: 'Escalation policy', value: input.policyName });
  if (input.actorName) facts.push({ title: 'By', value: input.actorName });
  facts.push({ title: 'Time', value: cardTime(input.at) });
  const actions: Element[] = [];
  if (input.links.acknowledge) actions.push(openUrl('Acknowledge', input.links.acknowledge));
  if (input.links.resolve) actions.push(openUrl('Resolve', input.links.resolve));
  actions.push(openUrl('Open in Klaxon', input.links.incident));
  return teamsMessage(
    card(
      [
        text(`${headline} · #${incident.number}`, { size: 'Small', weight: 'Bolder', isSubtle: true }),
        text(cardTitle(incident.title), { size: 'Large', weight: 'Bolder' }),
        text(`Status: ${incident.status}`, { weight: 'Bolder', color: statusColor(incident.status) }),
        { type: 'FactSet', facts },
      ],
      actions,
    ),
  );
}

/** Which action buttons an incident in this status still offers. */
export function offeredActions(status: string): { acknowledge: boolean; resolve: boolean } {
  return { acknowledge: status === 'TRIGGERED', resolve: status === 'TRIGGERED' || status === 'ACKNOWLEDGED' || status === 'INVESTIGATING' };
}

/** The test card `POST /api/services/{id}/chat/teams/test` sends. */
export function testCard(input: { serviceName: string; appUrl: string; at: string }): TeamsMessage {
  return teamsMessage(
    card(
      [
        text('Klaxon test message', { size: 'Large', weight: 'Bolder' }),
        text(`Incidents of the service "${input.serviceName}" will be posted here: new incidents and every status change.`),
        { type: 'FactSet', facts: [{ title: 'Time', value: cardTime(input.at) }] },
      ],
      [openUrl('Open in Klaxon', input.appUrl)],
    ),
  );
}
