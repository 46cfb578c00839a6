/** How one page went, and the line the timeline shows for it. Pure: no I/O. */
import { CHANNELS, DEV_INBOX, isChannelId } from '../channels';

export const NOTIFICATION_STATUSES = ['queued', 'sent', 'delivered', 'failed', 'skipped'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** How one page went, as the workflow and the timeline see it. */
export interface PageOutcome {
  status: NotificationStatus;
  channel: string;
  target: string;
  error: string | null;
  fallbackReason: string | null;
  provider?: string;
}

/** One line a person can read on the timeline. */
export function describePage(o: PageOutcome, who: string | null): string {
  const what = `${isChannelId(o.channel) ? CHANNELS[o.channel].label : o.channel} to ${who ? `${who} (${o.target})` : o.target}`;
  const why = o.fallbackReason ? ` (${o.fallbackReason})` : '';
  switch (o.status) {
    case 'failed':
      return `${what} failed: ${o.error ?? 'unknown error'}${why}`;
    case 'skipped':
      return `${what} not sent: ${o.error ?? 'not needed'}`;
    default:
      return `${what} ${o.provider === DEV_INBOX ? 'stored in the dev inbox' : 'sent'}${why}`;
  }
}
