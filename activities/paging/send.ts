import type { MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from '@mikro-orm/postgresql';
import { CHANNELS, type ChannelId } from '../../src/domain/channels';
import type { Plan } from '../../src/domain/plans';
import type { PageJob } from '../../src/domain/paging/escalation-plan';
import type { PageOutcome } from '../../src/domain/paging/page-outcome';
import { providerDidNotAccept } from '../../src/providers/failures';
import { PERMANENT_DELIVERY_FAILURE, type ChannelSender, type SentPage } from '../../src/providers/types';
import { claimAttempt, type ClaimedAttempt, type PageRoute } from './claim';
import { callProvider } from '../../src/providers/provider-call';
import { claimWithinQuota, countsAgainstQuota } from './quota';
import { renderPage, type PageLinks } from './render';
import { nextReplyCode } from '../../src/providers/twilio';
import { recordPageOutcome } from './timeline';

export interface SendPageInput {
  incidentId: string;
  /** Chosen by the workflow: a retried attempt finds the row it wrote. */
  notificationId: string;
  /** The timeline seq the workflow reserved for this page's entry. */
  seq: number;
  step: number;
  job: PageJob;
}

export interface PagingSendDeps {
  orm: MikroORM;
  senders: Record<ChannelId, ChannelSender>;
  links: PageLinks;
}

const DONE = ['sent', 'delivered', 'failed', 'skipped'];
const clip = (message: string) => message.slice(0, 2000);

/** The incident a page is for, the person's email, and the page's row if an attempt wrote one. */
interface PageContext {
  incident: { id: string; number: number; title: string; severity: string; status: string; organization_id: string; plan: Plan; service_name: string | null };
  userEmail: string | null;
  page: PageRow | null;
}

interface PageRow {
  status: string;
  channel: ChannelId;
  target: string;
  provider: string | null;
  error: string | null;
  fallback_reason: string | null;
  reply_code: number | null;
  unknown_outcome_retries: number;
}

/**
 * Sends one page, at least once and marked when maybe twice (design.md §12). The route is chosen
 * once (quota under a lock), then one statement claims the attempt only if the incident still
 * wants the page, and only then the provider is called. A retry that finds an attempt claimed
 * with no known outcome still sends, and the page's timeline entry says so.
 */
export function createPagingSendActivities({ orm, senders, links }: PagingSendDeps) {
  const knex = () => orm.em.fork().getKnex();

  async function sendPage(input: SendPageInput): Promise<PageOutcome> {
    const k = knex();
    const { incident, userEmail, page: previous } = await readContext(k, input);
    const outcome = (o: PageOutcome) => recordPageOutcome(k, input, o, userEmail);
    if (previous && DONE.includes(previous.status)) return outcome(outcomeOf(previous));

    // A retry keeps the route (and reply code) its first attempt claimed and counted.
    let route: PageRoute = previous
      ? { channel: previous.channel, address: previous.target, fallbackReason: previous.fallback_reason }
      : { channel: input.job.channel, address: input.job.address, fallbackReason: null };
    // A text page carries the code a reply starts with (`4A`); taken before the claim, so the
    // claim stays the last step before the provider.
    const replyCode = CHANNELS[route.channel].format === 'text' ? previous?.reply_code ?? (await nextReplyCode(k, route.address, input.incidentId)) : null;
    let claim: ClaimedAttempt | null;
    if (!previous && countsAgainstQuota(input, incident.plan)) ({ route, claim } = await claimWithinQuota(k, input, incident.plan, replyCode));
    else claim = await claimAttempt(k, input, route, replyCode);
    if (!claim) return outcome(await notWanted(k, input, route, incident.organization_id));

    const base = { channel: route.channel, target: route.address, fallbackReason: route.fallbackReason, unknownOutcomeRetries: claim.unknownOutcomeRetries };
    const rendered = renderPage({ incident, notificationId: input.notificationId, channel: route.channel, to: route.address, replyCode, links });
    let sent: SentPage;
    try {
      sent = await callProvider(senders[route.channel], rendered);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const permanent = err instanceof ApplicationFailure && err.type === PERMANENT_DELIVERY_FAILURE;
      // The provider answered no: the next attempt cannot double the page. Otherwise the row
      // stays `sending`: nobody knows whether the provider took it.
      const status = permanent ? 'failed' : providerDidNotAccept(err) ? 'queued' : 'sending';
      await k('notifications').where({ id: input.notificationId }).update({ status, error: clip(message), updated_at: new Date() });
      if (!permanent) throw err; // retried with backoff by the activity's retry policy
      if (input.job.contactMethodId) await k('contact_methods').where({ id: input.job.contactMethodId }).update({ disabled_at: new Date(), disabled_reason: clip(message) });
      return outcome({ ...base, status: 'failed', error: message });
    }
    // A crash from here until the row says `sent` leaves it `sending`: the retry sends again, marked.
    await k('notifications').where({ id: input.notificationId }).update({ status: 'sent', provider: sent.provider, provider_message_id: sent.providerMessageId, error: null, updated_at: new Date() });
    if (input.job.userId) await inAppNotification(k, input, incident);
    return outcome({ ...base, status: 'sent', error: null, provider: sent.provider });
  }

  /** The page's retries ran out: the attempt is recorded as failed and the timeline says so. */
  async function recordPageFailed(input: SendPageInput & { reason: string }): Promise<PageOutcome> {
    const k = knex();
    const { incident, userEmail, page } = await readContext(k, input);
    const failed: PageOutcome = {
      status: 'failed',
      channel: page?.channel ?? input.job.channel,
      target: page?.target ?? input.job.address,
      error: `gave up after retries: ${input.reason}`,
      fallbackReason: page?.fallback_reason ?? null,
      unknownOutcomeRetries: page?.unknown_outcome_retries ?? 0,
    };
    await settleRow(k, input, incident.organization_id, failed);
    return recordPageOutcome(k, input, failed, userEmail);
  }

  return { sendPage, recordPageFailed };
}

/** One read: the incident as the page renders it, the plan, the person's email and the page's row. */
async function readContext(k: Knex, input: SendPageInput): Promise<PageContext> {
  const { rows } = (await k.raw(
    `select i.id, i.number, i.title, i.severity, i.status, i.organization_id, o.plan, s.name as service_name,
            (select email from users where id = :userId) as user_email, case when n.id is null then null else to_jsonb(n) end as page
       from incidents i
       join organizations o on o.id = i.organization_id
       left join services s on s.id = i.service_id
       left join notifications n on n.id = :notificationId
      where i.id = :incidentId`,
    { userId: input.job.userId, notificationId: input.notificationId, incidentId: input.incidentId },
  )) as { rows: Array<PageContext['incident'] & { user_email: string | null; page: PageRow | null }> };
  const row = rows[0];
  if (!row) throw ApplicationFailure.nonRetryable(`incident ${input.incidentId} has no projection`, 'IncidentNotFound');
  const { user_email: userEmail, page, ...incident } = row;
  return { incident, userEmail, page };
}

function outcomeOf(row: PageRow): PageOutcome {
  return {
    status: row.status as PageOutcome['status'],
    channel: row.channel,
    target: row.target,
    error: row.error,
    fallbackReason: row.fallback_reason,
    provider: row.provider ?? undefined,
    unknownOutcomeRetries: row.unknown_outcome_retries,
  };
}

/**
 * The claim found the page unwanted (the incident was acknowledged, resolved or moved on) or
 * already settled by another attempt: records the skip, or answers the settled outcome.
 */
async function notWanted(k: Knex, input: SendPageInput, route: PageRoute, organizationId: string): Promise<PageOutcome> {
  const now = await readContext(k, input);
  if (now.page && DONE.includes(now.page.status)) return outcomeOf(now.page);
  const moved = now.incident.status === 'TRIGGERED' ? 'the incident moved on since this page was planned' : `incident is ${now.incident.status}`;
  // An attempt before this one was claimed and never settled: it may have reached the provider.
  const why = now.page?.status === 'sending' ? `${moved}; an earlier attempt's outcome is unknown` : moved;
  const skipped: PageOutcome = {
    status: 'skipped',
    channel: route.channel,
    target: route.address,
    error: why,
    fallbackReason: route.fallbackReason,
    unknownOutcomeRetries: now.page?.unknown_outcome_retries ?? 0,
  };
  await settleRow(k, input, organizationId, skipped);
  return skipped;
}

/** Writes a final outcome (skipped, failed) on the page's row, creating it if no attempt did. */
async function settleRow(k: Knex, input: SendPageInput, organizationId: string, o: PageOutcome): Promise<void> {
  const now = new Date();
  await k('notifications')
    .insert({
      id: input.notificationId, organization_id: organizationId, incident_id: input.incidentId, user_id: input.job.userId,
      contact_method_id: input.job.contactMethodId, channel: o.channel, target: o.target, provider: null, provider_message_id: null,
      status: o.status, error: o.error && clip(o.error), reply_code: null, fallback_reason: o.fallbackReason, escalation_step: input.step, created_at: now, updated_at: now,
    })
    .onConflict('id')
    .merge(['status', 'error', 'updated_at']);
}

async function inAppNotification(k: Knex, input: SendPageInput, incident: PageContext['incident']): Promise<void> {
  await k('user_notifications')
    .insert({
      id: input.notificationId, organization_id: incident.organization_id, user_id: input.job.userId, incident_id: input.incidentId,
      title: `#${incident.number} ${String(incident.title).slice(0, 200)}`, body: `${incident.severity} incident triggered`, read_at: null, created_at: new Date(),
    })
    .onConflict('id')
    .ignore();
}
