/**
 * What a page says, whatever the channel: its subject line, and the email every email provider
 * sends (pure: the send activity renders, providers deliver). SMS and call formats belong to the
 * provider that answers them (src/integrations/twilio/messages.ts).
 */
import { escapeMarkup as xml } from '../markup';
import type { Severity } from '../severity';

export interface PageSubject {
  number: number;
  title: string;
  severity: Severity;
  serviceName: string | null;
  url: string;
}

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** `[CRITICAL] #42 Database down (API)`. */
export function pageSubject(p: PageSubject): string {
  return `[${p.severity}] #${p.number} ${clip(p.title, 120)}${p.serviceName ? ` (${p.serviceName})` : ''}`;
}

/** The paging email: plain text and HTML, each with signed acknowledge and resolve links. */
export function emailBody(p: PageSubject, links: { acknowledge: string; resolve: string }): { text: string; html: string } {
  const text = [
    pageSubject(p),
    '',
    `Acknowledge: ${links.acknowledge}`,
    `Resolve: ${links.resolve}`,
    `Open: ${p.url}`,
    '',
    'The links act once, as you, and expire.',
  ].join('\n');
  const html =
    `<p><strong>${xml(pageSubject(p))}</strong></p>` +
    `<p><a href="${xml(links.acknowledge)}">Acknowledge</a> · <a href="${xml(links.resolve)}">Resolve</a> · <a href="${xml(p.url)}">Open</a></p>` +
    '<p style="color:#666">The links act once, as you, and expire.</p>';
  return { text, html };
}
