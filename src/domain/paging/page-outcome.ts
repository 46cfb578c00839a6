/** How one page went, and the line the timeline shows for it. Pure: no I/O. */
import { CHANNELS, DEV_INBOX, displayAddress, isChannelId } from '../channels';

/**
 * `sending`: an attempt claimed the page and called (or is calling) its provider; a later attempt
 * that finds it so cannot know whether the provider accepted it (docs/architecture.md, "Paging").
 */
export const PAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'skipped'] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

/** How one page went, as the workflow and the timeline see it. */
export interface PageOutcome {
  status: PageStatus;
  channel: string;
  target: string;
  error: string | null;
  fallbackReason: string | null;
  provider?: string;
  /** Attempts that went out although an earlier one's outcome was unknown (0 or absent: none). */
  unknownOutcomeRetries?: number;
}

/** What the timeline says of a page that was retried after an attempt with an unknown outcome. */
export const UNKNOWN_OUTCOME_NOTE = "retried: the previous attempt's outcome is unknown, so this may have been sent twice";

/** One line a person can read on the timeline. */
export function describePage(o: PageOutcome, who: string | null): string {
  const target = displayAddress(o.channel, o.target);
  const what = `${isChannelId(o.channel) ? CHANNELS[o.channel].label : o.channel} to ${who ? `${who} (${target})` : target}`;
  const why = o.fallbackReason ? ` (${o.fallbackReason})` : '';
  const retried = o.unknownOutcomeRetries ? `; ${UNKNOWN_OUTCOME_NOTE}` : '';
  switch (o.status) {
    case 'failed':
      return `${what} failed: ${o.error ?? 'unknown error'}${why}${retried}`;
    case 'skipped':
      return `${what} not sent: ${o.error ?? 'not needed'}${retried}`;
    default:
      return `${what} ${o.provider === DEV_INBOX ? 'stored in the dev inbox' : 'sent'}${why}${retried}`;
  }
}

/** The structured part of a page's timeline entry, for the UI (snake_case, as the APIs). */
export interface PageEntryData {
  kind: 'page';
  status: PageStatus;
  channel: string;
  target: string;
  user_id: string | null;
  provider: string | null;
  error: string | null;
  fallback_reason: string | null;
  unknown_outcome_retry: boolean;
}

/** A page's entry data: what the line says, as fields. */
export function pageEntryData(o: PageOutcome, userId: string | null): PageEntryData {
  return {
    kind: 'page',
    status: o.status,
    channel: o.channel,
    target: displayAddress(o.channel, o.target),
    user_id: userId,
    provider: o.provider ?? null,
    error: o.error,
    fallback_reason: o.fallbackReason,
    unknown_outcome_retry: (o.unknownOutcomeRetries ?? 0) > 0,
  };
}
