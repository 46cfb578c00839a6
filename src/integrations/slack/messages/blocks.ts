/**
 * Block Kit for an incident (docs/chat.md), pure: the channel message (and the Slack DM page),
 * its thread replies, and the button vocabulary the interactions endpoint answers. Every
 * message carries `text` too: Slack shows it in notifications and to screen readers.
 */
import type { ActionsBlock, Button, KnownBlock } from '@slack/types';
import type { IncidentStatus } from '../../../domain/incident-lifecycle';
import type { Severity } from '../../../domain/severity';

/** Button action ids; each button's `value` is the incident id. */
export const SLACK_ACTION_IDS = {
  acknowledge: 'klaxon_acknowledge',
  resolve: 'klaxon_resolve',
  escalate: 'klaxon_escalate',
} as const;
export type SlackAction = keyof typeof SLACK_ACTION_IDS;

/** The action a button id names, or undefined for one Klaxon never sent. */
export const slackActionOf = (actionId: string): SlackAction | undefined =>
  (Object.keys(SLACK_ACTION_IDS) as SlackAction[]).find((action) => SLACK_ACTION_IDS[action] === actionId);

/** What a message shows of an incident, as it stands now. */
export interface SlackIncidentView {
  id: string;
  number: number;
  title: string;
  severity: Severity;
  status: IncidentStatus;
  serviceName: string | null;
  /** Who the latest paging step went to (member names); empty when nobody is being paged. */
  pagingNow: string[];
  /** The incident in the dashboard. */
  url: string;
}

export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

const SEVERITY_MARK: Record<Severity, string> = {
  CRITICAL: ':red_circle:',
  HIGH: ':large_orange_circle:',
  MEDIUM: ':large_yellow_circle:',
  LOW: ':large_blue_circle:',
  INFO: ':white_circle:',
};

const STATUS_LABEL: Record<IncidentStatus, string> = {
  TRIGGERED: 'Triggered',
  ACKNOWLEDGED: 'Acknowledged',
  INVESTIGATING: 'Investigating',
  RESOLVED: 'Resolved',
  CLOSED: 'Closed',
};

/** Slack's mrkdwn control characters (docs: "Escaping text"); a title must not become a link or a mention. */
export const escapeMrkdwn = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Slack refuses a section text over 3,000 characters and a header over 150. */
const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const button = (action: SlackAction, label: string, incidentId: string, style?: 'primary' | 'danger'): Button => ({
  type: 'button',
  action_id: SLACK_ACTION_IDS[action],
  text: { type: 'plain_text', text: label },
  value: incidentId,
  ...(style ? { style } : {}),
});

/** The buttons that still mean something in a status: none once resolved. */
export function actionsFor(view: Pick<SlackIncidentView, 'id' | 'status' | 'url'>): ActionsBlock | undefined {
  const open = view.status === 'TRIGGERED' || view.status === 'ACKNOWLEDGED' || view.status === 'INVESTIGATING';
  if (!open) return undefined;
  const elements: Button[] = [];
  if (view.status === 'TRIGGERED') elements.push(button('acknowledge', 'Acknowledge', view.id, 'primary'));
  elements.push(button('resolve', 'Resolve', view.id));
  elements.push(button('escalate', 'Escalate', view.id, 'danger'));
  return { type: 'actions', block_id: `klaxon_incident_${view.id}`, elements };
}

/** The one message a new incident posts; every change rewrites it with `chat.update`. */
export function incidentMessage(view: SlackIncidentView): SlackMessage {
  const title = `#${view.number} ${view.title}`;
  const paging = view.pagingNow.length ? view.pagingNow.map(escapeMrkdwn).join(', ') : '—';
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: clip(`${SEVERITY_MARK[view.severity]} *<${view.url}|${escapeMrkdwn(title)}>*`, 3000) } },
    {
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: `*Status*\n${STATUS_LABEL[view.status]}` },
        { type: 'mrkdwn', text: `*Severity*\n${view.severity}` },
        { type: 'mrkdwn', text: `*Service*\n${escapeMrkdwn(clip(view.serviceName ?? '—', 500))}` },
        { type: 'mrkdwn', text: `*Paging now*\n${clip(paging, 500)}` },
      ],
    },
  ];
  const actions = actionsFor(view);
  if (actions) blocks.push(actions);
  return { text: clip(`${STATUS_LABEL[view.status]}: ${title} (${view.severity})`, 3000), blocks };
}

/** A thread reply for one change: "Acknowledged via Slack by Dana". */
export function threadReplyText(change: string, actorName: string | null): string {
  return escapeMrkdwn(actorName ? `${change} by ${actorName}` : change);
}
