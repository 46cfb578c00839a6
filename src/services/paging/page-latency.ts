/**
 * What the paging activity observes for the published latencies (docs/reliability.md, "Published
 * latencies"): escalation lateness when a page's first attempt is claimed, delivery time when a
 * provider without delivery reports took it, and alert to first page once per incident. The one
 * writer of `incident_first_pages` (which page of an incident was its first; purged with the
 * incident). Observing never fails a page: an error loses the observation, nothing else.
 */
import type { Knex } from '@mikro-orm/postgresql';
import { DEV_INBOX } from '../../domain/channels';
import { observePageDelivery, processLatencyMetrics } from '../status/latency-metrics';
import type { ClaimedAttempt, SendPageInput } from './pages';

/** Channels whose carriers report delivery (sms, voice): their delivery time is observed when the report comes (recordDeliveryReport). */
const REPORTED_CHANNELS: ReadonlySet<string> = new Set(['sms', 'voice']);

/**
 * A page's attempt was claimed (the row says `sending`): on the page's first attempt, how late it
 * started after its plan had it fall due (escalation pages only; none for a run recorded before
 * `dueAt` existed). Returns the claim's time, for pageSent.
 */
export function pageClaimed(input: SendPageInput, claim: ClaimedAttempt, now = Date.now()): number {
  const due = input.dueAt === undefined ? NaN : Date.parse(input.dueAt);
  if (!input.requested && claim.attempts === 1 && Number.isFinite(due)) processLatencyMetrics.observe('escalation_lateness', (now - due) / 1000);
  return now;
}

/**
 * The provider took a page and its row says `sent` (markPageSent wrote `sent_at`): the delivery
 * time of a channel without delivery reports (claim → accepted), and, when it is the incident's
 * first page, the time from its first alert. Two pages of one incident sent at once both try the
 * insert; its key lets one through, so an incident counts once (a retry after a crash, too).
 */
export async function pageSent(
  k: Knex,
  input: SendPageInput,
  page: { channel: string; provider: string; claimedAtMs: number },
  now = Date.now(),
): Promise<void> {
  try {
    if (!REPORTED_CHANNELS.has(page.channel) || page.provider === DEV_INBOX) observePageDelivery(page.channel, page.provider, (now - page.claimedAtMs) / 1000);
    // The first alert's created_at: the ingest listener's group commit stamps it when it stores the
    // alert, milliseconds after the request arrived. No alert (an incident opened by hand): no observation.
    const { rows } = (await k.raw(
      `with first as (
         insert into incident_first_pages (incident_id, notification_id, paged_at)
         select n.incident_id, n.id, n.sent_at from notifications n where n.id = :notificationId and n.sent_at is not null
         on conflict (incident_id) do nothing
         returning paged_at
       )
       select extract(epoch from f.paged_at - (select min(a.created_at) from alerts a where a.incident_id = :incidentId))::float8 as seconds from first f`,
      { notificationId: input.notificationId, incidentId: input.incidentId },
    )) as { rows: Array<{ seconds: number | null }> };
    const seconds = rows[0]?.seconds;
    if (seconds !== null && seconds !== undefined) processLatencyMetrics.observe('alert_to_first_page', seconds);
  } catch {
    // A lost observation; the page itself went out.
  }
}
