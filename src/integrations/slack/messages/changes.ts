/**
 * What one feed event does to an incident's Slack message (docs/chat.md, "Slack messages"), pure:
 * the thread reply's words, whether the message is posted, updated or left alone, and what a
 * failed attempt leads to.
 */
import type { IncidentEventBody } from '../../../domain/incident-events';
import type { IncidentStatus } from '../../../domain/incident-lifecycle';
import { afterFailedAttempt } from '../../../services/incident-feed/delivery-queue';
import { threadReplyText } from './blocks';

type Actor = IncidentEventBody['actor'];

/** The surfaces a person acts through, as a reply says them: "via Slack". */
const VIA_LABEL: Record<string, string> = {
  slack: 'Slack',
  sms: 'SMS',
  voice: 'a phone call',
  email: 'email',
  push: 'the mobile app',
  api: 'the API',
  dashboard: 'the dashboard',
};

/** What the system is called when it acted: "Resolved by the alert's sender". */
const SYSTEM_ACTOR: Record<string, string | null> = {
  ingest: "the alert's sender",
  auto_close: null,
  escalation: null,
};

/** The status moves whose event type alone says what happened. */
const STATUS_WORDS: Partial<Record<IncidentEventBody['type'], string>> = {
  'incident.acknowledged': 'Acknowledged',
  'incident.investigating': 'Investigation started',
  'incident.resolved': 'Resolved',
  'incident.closed': 'Closed',
  'incident.reopened': 'Reopened',
};

/** How much of a note a thread reply quotes (the incident page has the rest). */
const NOTE_QUOTED = 500;
const clipped = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/**
 * The reply for a responder's action (docs/responding.md), or undefined for other events: a note
 * (quoted, clipped), a snooze, responders added, a reassign, a merge either way, a snooze's end.
 */
function responderReply(event: Pick<IncidentEventBody, 'type' | 'actor' | 'data'>): string | null | undefined {
  const data = event.data ?? {};
  const by = actorName(event.actor);
  switch (event.type) {
    case 'incident.note_added':
      return threadReplyText(`Note: ${clipped(String(data.text ?? ''), NOTE_QUOTED)}`, by);
    case 'incident.snoozed':
      return threadReplyText(`Snoozed for ${Number(data.minutes)} min`, by);
    case 'incident.responders_added': {
      const targets = Array.isArray(data.targets) ? (data.targets as Array<{ name?: string | null; type: string }>) : [];
      return threadReplyText(`Paging ${targets.map((t) => t.name ?? `a ${t.type}`).join(', ') || 'nobody'} now`, by);
    }
    case 'incident.reassigned':
      return threadReplyText('Reassigned; escalation restarted', by);
    case 'incident.merged': {
      const merged = data.merged as { number?: number } | undefined;
      return threadReplyText(`Merged #${merged?.number ?? '?'} into this incident`, by);
    }
    case 'incident.resolved': {
      const into = data.operation === 'merge' ? (data.merged_into as { number?: number } | undefined) : undefined;
      return into ? threadReplyText(`Resolved: merged into #${into.number ?? '?'}`, by) : undefined;
    }
    case 'incident.triggered':
      return data.operation === 'snooze_end' ? threadReplyText('Snooze ended; paging again', null) : undefined;
    default:
      return undefined;
  }
}

/** Whether the reply names a surface, so the deliverer looks it up: a person's status move. */
export const wantsVia = (event: Pick<IncidentEventBody, 'type' | 'actor'>): boolean => event.actor?.type === 'user' && event.type in STATUS_WORDS;

/** Who acted, as "by …": a person by name, the system when it says something, else nobody. */
function actorName(actor: Actor): string | null {
  if (!actor) return null;
  if (actor.type === 'user') return actor.name;
  const name = actor.name ?? '';
  return name in SYSTEM_ACTOR ? SYSTEM_ACTOR[name] : name || null;
}

/**
 * The thread reply for an event ("Acknowledged via Slack by Dana Smith", "Escalated to step 2"),
 * or null when the event only refreshes the message (a new incident, a delivered page).
 * `via` is the surface a person acted through, when known.
 */
export function threadReply(event: Pick<IncidentEventBody, 'type' | 'actor' | 'data'>, via: string | null): string | null {
  const data = event.data ?? {};
  const responder = responderReply(event);
  if (responder !== undefined) return responder;
  if (event.type === 'incident.escalated') {
    const step = Number(data.step_number ?? 0);
    const pass = Number(data.pass_number ?? 1);
    // Who it pages is in the message itself ("Paging now"), by name.
    return threadReplyText(`Escalated to step ${step}${pass > 1 ? ` (repeat ${pass - 1})` : ''}`, null);
  }
  if (event.type === 'incident.triggered') {
    // A new incident posts the message; back to TRIGGERED later is an acknowledgement that timed out.
    return data.operation === 'ack_timeout' ? threadReplyText('Acknowledgement timed out; paging again', null) : null;
  }
  if (event.type === 'incident.closed' && data.operation === 'auto_close') return threadReplyText('Closed automatically', null);
  const words = STATUS_WORDS[event.type];
  if (!words) return null;
  const surface = via && event.actor?.type === 'user' ? VIA_LABEL[via] : undefined;
  return threadReplyText(surface ? `${words} via ${surface}` : words, actorName(event.actor));
}

/** Who the message lists as being paged: only while the incident waits for someone to act. */
export const showsPagingNow = (status: IncidentStatus): boolean => status === 'TRIGGERED';

/** What an attempt does to the channel message. */
export type MessageStep = 'post' | 'update' | 'unchanged';

/**
 * Post when the incident has no message in the channel yet (a new incident, or one older than
 * the channel setting), update when what it shows changed, else leave it; the reply goes once.
 */
export function planAttempt(input: { kept: { contentHash: string | null } | undefined; contentHash: string; reply: string | null; repliedTs: string | null }): {
  message: MessageStep;
  reply: boolean;
} {
  const message: MessageStep = !input.kept ? 'post' : input.kept.contentHash === input.contentHash ? 'unchanged' : 'update';
  return { message, reply: input.reply !== null && input.repliedTs === null };
}

/**
 * After a failed attempt: a permanent Slack error (token revoked, channel gone, bot not in it)
 * parks at once, every pending row of the channel with it; anything else (Slack down, rate
 * limited, a timeout) retries on the feed's one schedule (src/services/incident-feed/delivery-queue.ts) and parks
 * when it runs out.
 */
export function afterSlackFailure(
  code: string,
  attempts: number,
  isPermanent: (code: string) => boolean,
): { retryInMs: number | null; park: boolean; permanent: boolean } {
  if (isPermanent(code)) return { retryInMs: null, park: true, permanent: true };
  const next = afterFailedAttempt(attempts);
  return { retryInMs: next.retryInMs, park: next.park, permanent: false };
}
