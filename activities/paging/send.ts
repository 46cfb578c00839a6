import type { MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from '@mikro-orm/postgresql';
import { CHANNELS, isChannelId, type ChannelId } from '../../src/domain/channels';
import type { PageOutcome } from '../../src/domain/paging/page-outcome';
import { providerDidNotAccept } from '../../src/integrations/failures';
import { callProvider } from '../../src/integrations/provider-call';
import { keepsContactMethod, PERMANENT_DELIVERY_FAILURE, type ChannelSender, type OutgoingPage, type SentPage } from '../../src/integrations/types';
import {
  claimAttempt,
  claimFailover,
  claimWithinQuota,
  countsAgainstQuota,
  disableContactMethod,
  markAttemptFailed,
  markPageSent,
  inAppNotificationCte,
  PAGE_NOT_WRITTEN,
  readPageContext,
  settlePage,
  type ClaimedAttempt,
  type PageRoute,
  type PageRow,
  type SendPageInput,
} from '../../src/services/paging';
import { pageClaimed, pageSent } from '../../src/services/paging/page-latency';
import { nextReplyCode, replyCodeRead } from '../../src/services/paging/reply-codes';
import { recordCanaryPage } from '../../src/services/watchdog/canary-state';
import { renderPage, type PageLinks } from './render';
import { recordPageOutcome } from './timeline';
import { carrierOrder, recordedProgress, sendThroughCarriers, type CarrierProgress, type PagingCarriers } from './carriers';

export type { SendPageInput };

export interface PagingSendDeps {
  orm: MikroORM;
  senders: Record<ChannelId, ChannelSender>;
  /** The phone channels' carriers (docs/reliability.md, "Carriers"); absent: every channel goes to its one sender. */
  carriers?: PagingCarriers;
  links: PageLinks;
}

/** A page's outcome, and for a phone page its carriers' progress: the workflow waits for the report and fails over by it. */
export type SendOutcome = PageOutcome & { carrier?: CarrierProgress };

const DONE = ['sent', 'delivered', 'failed', 'skipped'];
/** What a canary page's row names as its provider: the route that pages nobody. */
const CANARY_PROVIDER = 'canary';

/**
 * Sends one page, at least once and marked when maybe twice (docs/architecture.md, "Paging"). The route is chosen
 * once (quota under a lock), then one statement claims the attempt only if the incident still
 * wants the page, and only then the provider is called. A retry that finds an attempt claimed
 * with no known outcome still sends, and the page's timeline entry says so.
 */
export function createPagingSendActivities({ orm, senders, carriers, links }: PagingSendDeps) {
  const knex = () => orm.em.fork().getKnex();

  /** The outcome of a page found already sent, with its carriers' progress when a carrier took it. */
  async function withProgress(k: Knex, input: SendPageInput, o: PageOutcome): Promise<SendOutcome> {
    if (!carriers?.onReports || !o.provider || !isChannelId(o.channel) || !carriers.senders[o.channel]?.length) return o;
    const progress = await recordedProgress(k, carriers, { notificationId: input.notificationId, channel: o.channel, to: o.target, provider: o.provider });
    return progress ? { ...o, carrier: progress } : o;
  }

  async function sendPage(input: SendPageInput): Promise<SendOutcome> {
    const k = knex();
    if (input.failover) return sendFailover(k, input, input.failover.tried);
    // A page on a channel declaring `replyCodes` (SMS) carries the code a reply starts with (`4A`); a first attempt takes it in the same
    // read (none is taken once an attempt wrote the page's row), before the claim, so the claim
    // stays the last step before the provider.
    const text = CHANNELS[input.job.channel].replyCodes;
    const read = await readPageContext(k, input, text ? replyCodeRead(input.job.address, input.incidentId, PAGE_NOT_WRITTEN) : undefined);
    const { incident, userEmail, page: previous } = read;
    const outcome = (o: PageOutcome) => recordPageOutcome(k, input, o, userEmail);
    if (previous && DONE.includes(previous.status)) return withProgress(k, input, await outcome(outcomeOf(previous)));

    // A retry keeps the route (and reply code) its first attempt claimed and counted.
    let route: PageRoute = previous
      ? { channel: previous.channel, address: previous.target, fallbackReason: previous.fallback_reason }
      : { channel: input.job.channel, address: input.job.address, fallbackReason: null };
    const taken = read.also === null || read.also === undefined ? null : Number(read.also);
    const replyCode = CHANNELS[route.channel].replyCodes ? (previous?.reply_code ?? taken ?? (await nextReplyCode(k, route.address, input.incidentId))) : null;
    let claim: ClaimedAttempt | null;
    if (!previous && countsAgainstQuota(input, incident.plan)) ({ route, claim } = await claimWithinQuota(k, input, incident.plan, replyCode));
    else claim = await claimAttempt(k, input, route, replyCode);
    if (!claim) return outcome(await notWanted(k, input, route, incident.organization_id));

    const base = { channel: route.channel, target: route.address, fallbackReason: route.fallbackReason, unknownOutcomeRetries: claim.unknownOutcomeRetries };
    // The watchdog canary's route (docs/reliability.md): everything up to here was the real path;
    // no provider, no dev inbox, no in-app notification: the page records the canary's success.
    if (incident.canary) {
      await recordCanaryPage(k, input.incidentId);
      await markPageSent(k, input.notificationId, { provider: CANARY_PROVIDER, providerMessageId: null });
      return recordPageOutcome(k, input, { ...base, status: 'sent', error: null, provider: CANARY_PROVIDER }, userEmail);
    }
    const claimedAtMs = pageClaimed(input, claim); // published latencies (docs/reliability.md)
    const rendered = renderPage({ incident, notificationId: input.notificationId, channel: route.channel, to: route.address, replyCode, links });
    let sent: SentPage;
    let progress: CarrierProgress | undefined;
    try {
      const phone = carriers?.senders[route.channel]?.length ? carriers : undefined;
      if (phone) ({ sent, progress } = await throughCarriers(k, input.incidentId, rendered, phone, []));
      else sent = await callProvider(senders[route.channel], rendered);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const permanent = err instanceof ApplicationFailure && err.type === PERMANENT_DELIVERY_FAILURE;
      // The provider answered no: the next attempt cannot double the page. Otherwise the row
      // stays `sending`: nobody knows whether the provider took it.
      const status = permanent ? 'failed' : providerDidNotAccept(err) ? 'queued' : 'sending';
      await markAttemptFailed(k, input.notificationId, status, message);
      if (!permanent) throw err; // retried with backoff by the activity's retry policy
      if (input.job.contactMethodId && !keepsContactMethod(err)) await disableContactMethod(k, input.job.contactMethodId, message);
      return outcome({ ...base, status: 'failed', error: message });
    }
    // A crash from here until the row says `sent` leaves it `sending`: the retry sends again, marked.
    await markPageSent(k, input.notificationId, sent);
    await pageSent(k, input, { channel: route.channel, provider: sent.provider, claimedAtMs });
    // The in-app notification goes with the page's entry, one statement: if it fails, the retry
    // finds the page sent and writes the entry alone.
    const inApp = input.job.userId
      ? inAppNotificationCte({ notificationId: input.notificationId, incidentId: input.incidentId, userId: input.job.userId }, incident)
      : undefined;
    const sentOutcome = await recordPageOutcome(k, input, { ...base, status: 'sent', error: null, provider: sent.provider }, userEmail, inApp);
    // Only with FAILOVER_ON_REPORTS does the workflow follow the carriers (a refusal failed over above either way).
    return progress && carriers?.onReports ? { ...sentOutcome, carrier: progress } : sentOutcome;
  }

  /** Sends through the route's carriers for the number, leaving out those already tried. */
  async function throughCarriers(k: Knex, incidentId: string, page: OutgoingPage, phone: PagingCarriers, tried: readonly string[]) {
    const order = await carrierOrder(k, phone, page.channel, page.to, tried);
    if (order.length === 0) throw ApplicationFailure.nonRetryable(`no carrier is left to try for this ${page.channel} page`, 'NoCarrierLeft');
    const routeLength = tried.length + order.length;
    return sendThroughCarriers(k, { incidentId, page, order, before: tried, failoverAfterSeconds: phone.failoverAfterSeconds, routeLength });
  }

  /**
   * The page to the next carrier (docs/reliability.md, "Carriers"): the last of `tried` failed it or
   * never confirmed it. Claimed only while the incident still wants it and no report confirmed it
   * meanwhile; the page keeps its row (and reply code): one page, whichever carrier delivers it. Its
   * timeline line is the workflow's, once the next carrier's outcome is known.
   */
  async function sendFailover(k: Knex, input: SendPageInput, tried: string[]): Promise<SendOutcome> {
    const { incident, page } = await readPageContext(k, input);
    if (!page) throw ApplicationFailure.nonRetryable(`page ${input.notificationId} has no row to fail over from`, 'PageNotFound');
    const from = tried[tried.length - 1]!;
    const phone = isChannelId(page.channel) && carriers?.senders[page.channel]?.length ? carriers : undefined;
    const route: PageRoute = { channel: page.channel, address: page.target, fallbackReason: page.fallback_reason };
    // A retry of this attempt finds the row it left: `sending` (outcome unknown) or `queued` (refused).
    const retried = page.status === 'queued' || page.status === 'sending';
    const claim = !phone
      ? null
      : retried
        ? await claimAttempt(k, input, route, page.reply_code)
        : page.provider === from
          ? await claimFailover(k, input, from)
          : null;
    // Not claimed: delivered after all, already taken by the next carrier, or no longer wanted.
    if (!claim) return withProgress(k, input, outcomeOf((await readPageContext(k, input)).page ?? page));
    const rendered = renderPage({ incident, notificationId: input.notificationId, channel: page.channel, to: page.target, replyCode: page.reply_code, links });
    let sent: Awaited<ReturnType<typeof throughCarriers>>;
    try {
      sent = await throughCarriers(k, input.incidentId, rendered, phone!, tried);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await markAttemptFailed(k, input.notificationId, providerDidNotAccept(err) || isPermanent(err) ? 'queued' : 'sending', message);
      // Retried by the activity's policy; a refusal for good by every carrier left ends the failover.
      throw err;
    }
    await markPageSent(k, input.notificationId, sent.sent);
    return {
      ...outcomeOf(page),
      status: 'sent',
      error: null,
      provider: sent.sent.provider,
      unknownOutcomeRetries: claim.unknownOutcomeRetries,
      carrier: sent.progress,
    };
  }

  /** The page's retries ran out: the attempt is recorded as failed and the timeline says so. */
  async function recordPageFailed(input: SendPageInput & { reason: string }): Promise<PageOutcome> {
    const k = knex();
    const { incident, userEmail, page } = await readPageContext(k, input);
    const failed: PageOutcome = {
      status: 'failed',
      channel: page?.channel ?? input.job.channel,
      target: page?.target ?? input.job.address,
      error: `gave up after retries: ${input.reason}`,
      fallbackReason: page?.fallback_reason ?? null,
      unknownOutcomeRetries: page?.unknown_outcome_retries ?? 0,
    };
    await settlePage(k, input, incident.organization_id, failed);
    return recordPageOutcome(k, input, failed, userEmail);
  }

  return { sendPage, recordPageFailed };
}

const isPermanent = (err: unknown) => err instanceof ApplicationFailure && err.type === PERMANENT_DELIVERY_FAILURE;

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
  const now = await readPageContext(k, input);
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
  await settlePage(k, input, organizationId, skipped);
  return skipped;
}
