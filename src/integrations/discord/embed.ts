/**
 * The Discord message Klaxon posts through a channel webhook (docs/integrations.md, "Discord"):
 * one embed per new incident and per status change. Pure. Discord webhooks cannot carry buttons,
 * so Acknowledge and Resolve are markdown links to signed one-use action URLs in the description.
 * Every text is cut to Discord's embed limits (title 256, description 4096, field value 1024,
 * 6000 characters in all).
 */
import { INCIDENT_STATUS_EVENT_TYPES, pagingLine } from '../chat-message';
import type { ChatActionLinks, ChatMessageContext } from '../types';

/** The feed events that post one: a new incident and every status move. */
export const DISCORD_EVENT_TYPES = INCIDENT_STATUS_EVENT_TYPES;

export const EMBED_LIMITS = { title: 256, description: 4096, fieldName: 256, fieldValue: 1024, fields: 25, total: 6000 } as const;

export interface DiscordEmbed {
  title: string;
  description: string;
  url: string;
  color: number;
  fields: Array<{ name: string; value: string; inline: boolean }>;
  timestamp: string;
  footer: { text: string };
}

/** What is POSTed to `{webhook_url}?wait=true`: embeds only, and no mention ever pings anyone. */
export interface DiscordMessage {
  embeds: DiscordEmbed[];
  allowed_mentions: { parse: [] };
}

export interface DiscordEmbedInput {
  type: string;
  incident: { number: number; title: string; severity: string; status: string };
  context: ChatMessageContext;
  actorName: string | null;
  at: string;
  links: ChatActionLinks;
}

const HEADLINES: Record<string, string> = {
  'incident.triggered': 'New incident',
  'incident.acknowledged': 'Acknowledged',
  'incident.investigating': 'Investigating',
  'incident.resolved': 'Resolved',
  'incident.reopened': 'Reopened',
  'incident.escalated': 'Escalated',
};

/** Colours (RGB integers): a new or reopened incident by its severity, later moves by the status. */
const SEVERITY_COLORS: Record<string, number> = { critical: 0xd92d20, high: 0xf04438, medium: 0xf79009, low: 0x2e90fa, info: 0x98a2b3 };
const STATUS_COLORS: Record<string, number> = { ACKNOWLEDGED: 0xf79009, INVESTIGATING: 0x7a5af8, RESOLVED: 0x12b76a, CLOSED: 0x667085 };

export function embedColor(status: string, severity: string): number {
  return STATUS_COLORS[status] ?? SEVERITY_COLORS[severity.toLowerCase()] ?? 0xd92d20;
}

/** A text cut to `max` characters, an ellipsis marking the cut. */
export const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Markdown's link and emphasis characters escaped, so an incident title cannot forge a link. */
export const escapeMarkdown = (text: string): string => text.replace(/[\\[\]()*_~`>|]/g, (c) => `\\${c}`);

/** The embed of one incident event, with the action links its status still allows. */
export function incidentEmbed(input: DiscordEmbedInput): DiscordMessage {
  const { incident, links } = input;
  const actions = [
    ...(links.acknowledge ? [`[Acknowledge](${links.acknowledge})`] : []),
    ...(links.resolve ? [`[Resolve](${links.resolve})`] : []),
    `[Open in Klaxon](${links.incident})`,
  ].join(' · ');
  const by = input.actorName ? `\nBy ${escapeMarkdown(cut(input.actorName, 200))}` : '';
  const headline = HEADLINES[input.type] ?? input.type;
  const field = (name: string, value: string, inline = true) => ({ name, value: cut(escapeMarkdown(value), EMBED_LIMITS.fieldValue), inline });
  return {
    embeds: [
      {
        title: cut(`#${incident.number} ${incident.title}`, EMBED_LIMITS.title),
        description: cut(`**${headline}**${by}\n\n${actions}`, EMBED_LIMITS.description),
        url: links.incident,
        color: embedColor(incident.status, incident.severity),
        fields: [
          field('Service', input.context.serviceName ?? '(no service)'),
          field('Status', incident.status),
          field('Severity', incident.severity),
          field('Paging', pagingLine(input.context), false),
        ],
        timestamp: input.at,
        footer: { text: 'Klaxon' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}
