/**
 * What a Twilio page says (pure): the SMS with the reply code its inbound hook understands, the
 * call's TwiML that gathers a keypress (and its words, which another carrier's call speaks too),
 * and the parser of replies. Texts stay short: an SMS segment is 160 characters and people read
 * them half asleep.
 */
import { escapeMarkup as xml } from '../../domain/markup';
import { DRILL_MARK } from '../../domain/drill-mark';
import type { PageSubject } from '../../domain/paging/messages';

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** The paging SMS: the incident, then the reply code and what to reply (issue 5 contract). */
export function smsText(p: PageSubject, replyCode: number): string {
  const tail = `Reply ${replyCode}A to acknowledge, ${replyCode}R to resolve`;
  return `Klaxon #${p.number} ${p.severity}: ${clip(p.title, 160 - tail.length - 30)}. ${tail}`;
}

/** What the paging call says about the incident, before its keypress prompt (every carrier's call). */
export function voiceSpeech(p: PageSubject): string {
  return `Klaxon alert. ${p.severity.toLowerCase()} incident ${p.number}: ${clip(p.title, 200)}${p.serviceName ? `, on ${p.serviceName}` : ''}.`;
}

/** What a drill call says before its prompt. */
export const DRILL_SPEECH = 'This is a Klaxon paging drill. It is a test: there is no incident.';

/** TwiML for the paging call: speaks the incident and gathers one key (1 ack, 2 escalate). */
export function voiceTwiml(p: PageSubject, gatherUrl: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?><Response>' +
    `<Gather numDigits="1" timeout="10" action="${xml(gatherUrl)}" method="POST">` +
    `<Say>${xml(voiceSpeech(p))}</Say><Say>Press 1 to acknowledge. Press 2 to escalate.</Say>` +
    '</Gather><Say>No key pressed. Goodbye.</Say></Response>'
  );
}

/** Parses an SMS reply like `4a`, ` 12R `: the code and the action, or null. */
export function parseSmsReply(body: string): { code: number; action: 'acknowledge' | 'resolve' } | null {
  const m = /^\s*(\d{1,3})\s*([ar])\s*$/i.exec(body);
  if (!m) return null;
  return { code: Number(m[1]), action: m[2].toLowerCase() === 'a' ? 'acknowledge' : 'resolve' };
}

/** The drill SMS: the mark, no incident, and the reply code. */
export const drillSmsText = (replyCode: number): string => `${DRILL_MARK}: no incident. Reply ${replyCode}A to acknowledge.`;

/** The drill call's TwiML: says it is a test and gathers one key (1 acknowledges). */
export function drillVoiceTwiml(gatherUrl: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?><Response>' +
    `<Gather numDigits="1" timeout="10" action="${xml(gatherUrl)}" method="POST">` +
    `<Say>${DRILL_SPEECH}</Say><Say>Press 1 to acknowledge.</Say>` +
    '</Gather><Say>No key pressed. Goodbye.</Say></Response>'
  );
}
