/**
 * The Mattermost post Klaxon makes through an incoming webhook (docs/integrations.md,
 * "Mattermost"): one message attachment per new incident and status change, with interactive
 * buttons Acknowledge and Resolve whose `integration.url` is Klaxon's action endpoint and whose
 * `integration.context` carries a signed one-use token. Pure: the tokens are made by the caller.
 * The same attachment, re-rendered, is what a click answers as the post's update.
 */
import { INCIDENT_STATUS_EVENT_TYPES, pagingLine } from '../chat-message';
import type { ChatMessageContext } from '../types';

/** The feed events that post one: a new incident and every status move. */
export const MATTERMOST_EVENT_TYPES = INCIDENT_STATUS_EVENT_TYPES;

/** Where a button's click goes, under the app URL (mounted by hooks.ts). */
export const MATTERMOST_ACTION_PATH = '/hooks/mattermost/action';

export interface MattermostAction {
  id: string;
  name: string;
  type: 'button';
  style: 'danger' | 'success' | 'primary' | 'default';
  integration: { url: string; context: { token: string } };
}

export interface MattermostAttachment {
  fallback: string;
  color: string;
  title: string;
  title_link: string;
  text: string;
  fields: Array<{ short: boolean; title: string; value: string }>;
  actions: MattermostAction[];
  footer: string;
  ts: number;
}

/** What is POSTed to the incoming webhook. */
export interface MattermostMessage {
  username: string;
  text: string;
  attachments: MattermostAttachment[];
}

export interface MattermostMessageInput {
  type: string;
  incident: { number: number; title: string; severity: string; status: string };
  context: ChatMessageContext;
  actorName: string | null;
  at: string;
  incidentUrl: string;
  /** Klaxon's action endpoint (`${APP_URL}/hooks/mattermost/action`). */
  actionUrl: string;
  /** One-use tokens for the buttons the status still allows; null leaves the button out. */
  tokens: { acknowledge: string | null; resolve: string | null };
}

const HEADLINES: Record<string, string> = {
  'incident.triggered': 'New incident',
  'incident.acknowledged': 'Acknowledged',
  'incident.investigating': 'Investigating',
  'incident.resolved': 'Resolved',
  'incident.reopened': 'Reopened',
  'incident.escalated': 'Escalated',
};

const STATUS_COLORS: Record<string, string> = {
  TRIGGERED: '#D92D20',
  ACKNOWLEDGED: '#F79009',
  INVESTIGATING: '#7A5AF8',
  RESOLVED: '#12B76A',
  CLOSED: '#667085',
};

/** Longest title shown; Mattermost's post limit is 16383 characters in all. */
const TITLE_MAX = 300;
const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Markdown's link and emphasis characters escaped, so an incident title cannot forge a link or mention. */
export const escapeMarkdown = (text: string): string => text.replace(/[\\[\]()*_~`>|@]/g, (c) => `\\${c}`);

/** The attachment of one incident event, with the buttons its status still allows. */
export function incidentAttachment(input: MattermostMessageInput): MattermostAttachment {
  const { incident } = input;
  const title = cut(`#${incident.number} ${incident.title}`, TITLE_MAX);
  const headline = HEADLINES[input.type] ?? input.type;
  const button = (id: 'acknowledge' | 'resolve', name: string, style: MattermostAction['style'], token: string): MattermostAction => ({
    id,
    name,
    type: 'button',
    style,
    integration: { url: input.actionUrl, context: { token } },
  });
  return {
    fallback: `${headline}: ${title} (${incident.status})`,
    color: STATUS_COLORS[incident.status] ?? '#D92D20',
    title,
    title_link: input.incidentUrl,
    text: `**${headline}**${input.actorName ? ` by ${escapeMarkdown(cut(input.actorName, 200))}` : ''}`,
    fields: [
      { short: true, title: 'Service', value: escapeMarkdown(input.context.serviceName ?? '(no service)') },
      { short: true, title: 'Status', value: incident.status },
      { short: true, title: 'Severity', value: incident.severity },
      { short: false, title: 'Paging', value: escapeMarkdown(pagingLine(input.context)) },
    ],
    actions: [
      ...(input.tokens.acknowledge ? [button('acknowledge', 'Acknowledge', 'danger', input.tokens.acknowledge)] : []),
      ...(input.tokens.resolve ? [button('resolve', 'Resolve', 'success', input.tokens.resolve)] : []),
    ],
    footer: 'Klaxon',
    ts: Math.floor(new Date(input.at).getTime() / 1000),
  };
}

/** The post of one incident event. */
export function incidentMessage(input: MattermostMessageInput): MattermostMessage {
  return { username: 'Klaxon', text: '', attachments: [incidentAttachment(input)] };
}
