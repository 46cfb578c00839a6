/**
 * What a page says, per channel (pure: the send activity renders, providers deliver). Texts stay
 * short: an SMS segment is 160 characters and people read them half asleep.
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

/** The paging SMS: the incident, then the reply code and what to reply (issue 5 contract). */
export function smsText(p: PageSubject, replyCode: number): string {
  const tail = `Reply ${replyCode}A to acknowledge, ${replyCode}R to resolve`;
  return `Klaxon #${p.number} ${p.severity}: ${clip(p.title, 160 - tail.length - 30)}. ${tail}`;
}


/** TwiML for the paging call: speaks the incident and gathers one key (1 ack, 2 escalate). */
export function voiceTwiml(p: PageSubject, gatherUrl: string): string {
  const say = `Klaxon alert. ${p.severity.toLowerCase()} incident ${p.number}: ${clip(p.title, 200)}${p.serviceName ? `, on ${p.serviceName}` : ''}.`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?><Response>' +
    `<Gather numDigits="1" timeout="10" action="${xml(gatherUrl)}" method="POST">` +
    `<Say>${xml(say)}</Say><Say>Press 1 to acknowledge. Press 2 to escalate.</Say>` +
    '</Gather><Say>No key pressed. Goodbye.</Say></Response>'
  );
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

/** Parses an SMS reply like `4a`, ` 12R `: the code and the action, or null. */
export function parseSmsReply(body: string): { code: number; action: 'acknowledge' | 'resolve' } | null {
  const m = /^\s*(\d{1,3})\s*([ar])\s*$/i.exec(body);
  if (!m) return null;
  return { code: Number(m[1]), action: m[2].toLowerCase() === 'a' ? 'acknowledge' : 'resolve' };
}
