/**
 * A phone page through its carriers (docs/reliability.md, "Carriers"): the route's carriers for
 * the number (CARRIER_ROUTES), the healthy ones first (the circuit breaker), then each in turn
 * until one takes the page. A carrier that refuses (an HTTP error, no answer in time, a refusal
 * for good) is recorded and the next one is tried at once; one that takes it is recorded with its
 * message id, and the workflow waits for its delivery report before it tries the next
 * (escalation.ts, `followCarriers`).
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from '@mikro-orm/postgresql';
import type { ChannelId } from '../../src/domain/channels';
import { orderByHealth } from '../../src/domain/paging/carrier-breaker';
import { carriersFor, type Carrier, type CarrierRoutes } from '../../src/domain/paging/carrier-routes';
import { confirmationWaitMs } from '../../src/domain/paging/failover';
import { providerDidNotAccept } from '../../src/integrations/failures';
import { callProvider } from '../../src/integrations/provider-call';
import { PERMANENT_DELIVERY_FAILURE, type OutgoingPage, type SentPage } from '../../src/integrations/types';
import type { CarrierSender } from '../../src/integrations/wiring';
import { carrierAttemptsOf, carriersHealth, recordCarrierAttempt } from '../../src/services/paging';

/** The worker's carriers: per phone channel the configured ones, their routes, and how long a page waits for a report. */
export interface PagingCarriers {
  senders: Partial<Record<ChannelId, CarrierSender[]>>;
  routes: CarrierRoutes;
  failoverAfterSeconds: number;
  /** FAILOVER_ON_REPORTS: the workflow is told the carriers' progress, to wait for reports and fail over on them. */
  onReports: boolean;
}

/** What the workflow learns of a phone page's carriers: whom to wait for, how long, and whether another remains. */
export interface CarrierProgress {
  /** The carrier that took the page. */
  carrier: string;
  /** Every carrier the page went to so far, in order, `carrier` last. */
  tried: string[];
  /** Carriers that refused it in this attempt before `carrier` took it, with their errors. */
  refusals: Array<{ carrier: string; error: string }>;
  /** Another carrier of the route is left to try. */
  next: boolean;
  /** How long to wait for `carrier`'s delivery report before it counts as unconfirmed. */
  waitMs: number;
  /** Its report came before its answer was recorded, and is recorded with it: nothing to wait for. */
  reported?: true;
}

/** The carriers a page to `to` on `channel` tries now, in order, leaving out those it already went to. */
export async function carrierOrder(k: Knex, carriers: PagingCarriers, channel: ChannelId, to: string, tried: readonly string[] = []): Promise<CarrierSender[]> {
  const configured = carriers.senders[channel] ?? [];
  const route = carriersFor(to, carriers.routes, new Set(configured.map((c) => c.carrier)));
  const order = route.length > 1 ? orderByHealth(route, await carriersHealth(k, route)) : route;
  return order.filter((c) => !tried.includes(c)).map((c) => configured.find((s) => s.carrier === c)!);
}

/**
 * Sends through the first carrier of `order` that takes the page, recording each answer. Throws
 * when every one refused: the least conclusive error, so the page's row says what is known (an
 * unknown outcome beats a refusal that retrying may fix, which beats a refusal for good).
 */
export async function sendThroughCarriers(
  k: Knex,
  opts: { incidentId: string; page: OutgoingPage; order: CarrierSender[]; before: readonly string[]; failoverAfterSeconds: number; routeLength: number },
): Promise<{ sent: SentPage; progress: CarrierProgress }> {
  const { page, order } = opts;
  const refusals: CarrierProgress['refusals'] = [];
  const errors: unknown[] = [];
  for (const { carrier, sender } of order) {
    try {
      const sent = await callProvider(sender, page);
      const status = await recordCarrierAttempt(k, {
        notificationId: page.notificationId,
        incidentId: opts.incidentId,
        carrier,
        channel: page.channel,
        status: 'sent',
        providerMessageId: sent.providerMessageId,
        error: null,
      });
      const tried = [...opts.before, ...refusals.map((r) => r.carrier), carrier];
      return {
        sent: { ...sent, provider: carrier },
        progress: {
          carrier,
          tried,
          refusals,
          next: tried.length < opts.routeLength,
          waitMs: confirmationWaitMs(page.channel, opts.failoverAfterSeconds),
          ...(status !== 'sent' && { reported: true as const }),
        },
      };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      await recordCarrierAttempt(k, {
        notificationId: page.notificationId,
        incidentId: opts.incidentId,
        carrier,
        channel: page.channel,
        status: 'refused',
        providerMessageId: null,
        error,
      });
      refusals.push({ carrier, error });
      errors.push(err);
    }
  }
  throw leastConclusive(errors);
}

const isPermanent = (err: unknown) => err instanceof ApplicationFailure && err.type === PERMANENT_DELIVERY_FAILURE;

/** Of every carrier's error: one whose outcome is unknown, else one retrying may fix, else the last (all permanent). */
function leastConclusive(errors: unknown[]): unknown {
  return errors.find((e) => !isPermanent(e) && !providerDidNotAccept(e)) ?? errors.find((e) => !isPermanent(e)) ?? errors[errors.length - 1];
}

/**
 * A page's progress as its carrier attempts record it: for an attempt that finds the page already
 * sent (a retry after the carrier took it), so the workflow still waits and fails over.
 */
export async function recordedProgress(
  k: Knex,
  carriers: PagingCarriers,
  page: { notificationId: string; channel: ChannelId; to: string; provider: string },
): Promise<CarrierProgress | undefined> {
  const attempts = await carrierAttemptsOf(k, page.notificationId);
  if (!attempts.some((a) => a.carrier === page.provider)) return undefined;
  const tried = [...new Set(attempts.map((a) => a.carrier))].filter((c) => c !== page.provider);
  tried.push(page.provider);
  const configured = carriers.senders[page.channel] ?? [];
  const route = carriersFor(page.to, carriers.routes, new Set(configured.map((c) => c.carrier)));
  // The refusals before the carrier took it: a retry that finds the page sent still has the failover line written.
  const taken = attempts.findIndex((a) => a.carrier === page.provider && a.status !== 'refused');
  const refusals = attempts
    .slice(0, taken === -1 ? attempts.length : taken)
    .filter((a) => a.status === 'refused' && a.carrier !== page.provider)
    .map((a) => ({ carrier: a.carrier, error: a.error ?? 'refused' }));
  return {
    carrier: page.provider,
    tried,
    refusals,
    next: route.some((c) => !tried.includes(c)),
    waitMs: confirmationWaitMs(page.channel, carriers.failoverAfterSeconds),
  };
}

export type { Carrier };
