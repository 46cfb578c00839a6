/**
 * What the workflow asks while a phone page goes from carrier to carrier (docs/reliability.md,
 * "Carriers"): how the carrier it waits for did, and, once settled, the failover's timeline line.
 * Local activities: quick reads and one write each.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { CHANNELS, displayAddress, isChannelId } from '../../src/domain/channels';
import { describeFailover, type CarrierFinal, type CarrierSetback } from '../../src/domain/paging/failover';
import { UNKNOWN_OUTCOME_NOTE } from '../../src/domain/paging/page-outcome';
import { recordPageEntry } from '../../src/services/incident';
import { carrierAttemptsOf, readPageContext, settlePage, settleUnconfirmed, type SendPageInput } from '../../src/services/paging';

/** How the carrier a page waits for did: delivered (and how fast), failed (and why), or nothing yet. */
export interface CarrierReport {
  status: 'delivered' | 'failed' | 'unconfirmed';
  error: string | null;
  deliveredInMs: number | null;
}

export interface FailoverLine {
  incidentId: string;
  /** The seq the workflow reserved for the line. */
  seq: number;
  page: SendPageInput;
  setbacks: CarrierSetback[];
  final: CarrierFinal;
  waitMs: number;
}

export function createFailoverActivities({ orm }: { orm: MikroORM }) {
  const knex = () => orm.em.fork().getKnex();

  /**
   * The page's carrier `carrier`, after the wait: its report as recorded. Not confirmed and
   * `settle`: the attempt is settled as failed (the page goes to the next carrier, and the breaker
   * counts the silence); a report arriving later changes neither.
   */
  async function carrierReport(input: { page: SendPageInput; carrier: string; waitMs: number; settle: boolean }): Promise<CarrierReport> {
    const k = knex();
    const attempts = (await carrierAttemptsOf(k, input.page.notificationId)).filter((a) => a.carrier === input.carrier && a.status !== 'refused');
    const attempt = attempts[attempts.length - 1];
    if (attempt?.status === 'delivered') {
      const ms = attempt.settledAt ? attempt.settledAt.getTime() - attempt.createdAt.getTime() : null;
      return { status: 'delivered', error: null, deliveredInMs: ms };
    }
    if (attempt?.status === 'failed') return { status: 'failed', error: attempt.error, deliveredInMs: null };
    const { page } = await readPageContext(k, input.page);
    // The page's row may know more than the attempt (a report matched it before the attempt was written).
    if (page?.provider === input.carrier && page.status === 'delivered') return { status: 'delivered', error: null, deliveredInMs: null };
    if (page?.provider === input.carrier && page.status === 'failed') return { status: 'failed', error: page.error, deliveredInMs: null };
    if (input.settle) {
      const seconds = Math.round(input.waitMs / 1000);
      await settleUnconfirmed(k, input.page.notificationId, input.carrier, `not confirmed within ${seconds} s`);
    }
    return { status: 'unconfirmed', error: null, deliveredInMs: null };
  }

  /**
   * The failover's line on the timeline, at the reserved seq: each carrier left and why, and how
   * the last did. When the last one failed too, the page's row says so. A send to the next carrier
   * retried while an earlier one's outcome was unknown (a worker killed after the carrier took it,
   * or a workflow task retried while its send ran) may have reached it twice: the line says so, as
   * a page's own entry does (the paging guarantee: a doubled page is always marked).
   */
  async function recordFailover(line: FailoverLine): Promise<void> {
    const k = knex();
    const { incident, userEmail, page } = await readPageContext(k, line.page);
    const channel = page?.channel ?? line.page.job.channel;
    const target = displayAddress(channel, page?.target ?? line.page.job.address);
    const label = isChannelId(channel) ? CHANNELS[channel].label : channel;
    if (line.final.status === 'failed' && page && page.status !== 'delivered') {
      await settlePage(k, line.page, incident.organization_id, {
        status: 'failed',
        channel,
        target: page.target,
        error: `every carrier failed: ${line.final.error ?? 'unknown error'}`,
        fallbackReason: page.fallback_reason,
        unknownOutcomeRetries: page.unknown_outcome_retries,
      });
    }
    const who = userEmail ? `${userEmail} (${target})` : target;
    const retried = (page?.unknown_outcome_retries ?? 0) > 0;
    await recordPageEntry(k, {
      incidentId: line.incidentId,
      seq: line.seq,
      channel,
      message: `${describeFailover(label, channel, line.setbacks, line.final, line.waitMs)}: page to ${who}${retried ? `; ${UNKNOWN_OUTCOME_NOTE}` : ''}`,
      data: {
        kind: 'failover',
        channel,
        target,
        user_id: line.page.job.userId,
        carriers: [
          ...line.setbacks.map((s) => ({ carrier: s.carrier, outcome: s.kind, error: s.error })),
          { carrier: line.final.carrier, outcome: line.final.status, error: line.final.error },
        ],
        delivered_in_ms: line.final.deliveredInMs,
        unknown_outcome_retry: retried,
      },
    });
  }

  return { carrierReport, recordFailover };
}
