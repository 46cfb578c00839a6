import type { MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from '@mikro-orm/postgresql';
import { CHANNELS, type ChannelId } from '../../src/domain/channels';
import type { Plan } from '../../src/domain/plans';
import type { PageJob } from '../../src/domain/paging/escalation-plan';
import { monthStart, quotaFallbackReason } from '../../src/domain/paging/quota';
import { renderPage, type PageLinks } from './render';
import { nextReplyCode } from './reply-codes';
import type { PageOutcome } from '../../src/domain/paging/page-outcome';
import { recordPageOutcome } from './timeline';
import { PERMANENT_DELIVERY_FAILURE, type ChannelSender } from '../notify/types';

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

/** Sends one page: checks the incident still wants it, applies quotas, records every attempt. */
export function createPagingSendActivities({ orm, senders, links }: PagingSendDeps) {
  const knex = () => orm.em.fork().getKnex();

  async function sendPage(input: SendPageInput): Promise<PageOutcome> {
    const k = knex();
    const incident = await k('incidents as i')
      .join('organizations as o', 'o.id', 'i.organization_id')
      .leftJoin('services as s', 's.id', 'i.service_id')
      .select('i.id', 'i.number', 'i.title', 'i.severity', 'i.status', 'i.organization_id', 'o.plan', 's.name as service_name')
      .where('i.id', input.incidentId)
      .first();
    if (!incident) throw ApplicationFailure.nonRetryable(`incident ${input.incidentId} has no projection`, 'IncidentNotFound');
    const previous = await k('notifications').where({ id: input.notificationId }).first();
    if (previous && DONE.includes(previous.status)) return recordPageOutcome(k, input, outcomeOf(previous));

    // An acknowledge (or any move) committed since the workflow scheduled this page: send nothing.
    if (incident.status !== 'TRIGGERED') {
      const outcome: PageOutcome = { status: 'skipped', channel: input.job.channel, target: input.job.address, error: `incident is ${incident.status}`, fallbackReason: null };
      await upsertRow(k, input, incident.organization_id, outcome, null);
      return recordPageOutcome(k, input, outcome);
    }
    const route = await routeWithQuota(k, input, incident.plan as Plan);
    const queued: PageOutcome = { status: 'queued', channel: route.channel, target: route.address, error: null, fallbackReason: route.fallbackReason };
    // A text page carries the code a reply starts with (`4A`).
    const replyCode = CHANNELS[route.channel].format === 'text' ? await nextReplyCode(k, route.address, input.incidentId) : null;
    await upsertRow(k, input, incident.organization_id, queued, replyCode);

    const page = renderPage({ incident, notificationId: input.notificationId, channel: route.channel, to: route.address, replyCode, links });
    try {
      const sent = await senders[route.channel].send(page);
      await k('notifications').where({ id: input.notificationId }).update({ status: 'sent', provider: sent.provider, provider_message_id: sent.providerMessageId, error: null, updated_at: new Date() });
      if (input.job.userId) await inAppNotification(k, input, incident);
      return recordPageOutcome(k, input, { status: 'sent', channel: route.channel, target: route.address, error: null, fallbackReason: route.fallbackReason, provider: sent.provider });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const permanent = err instanceof ApplicationFailure && err.type === PERMANENT_DELIVERY_FAILURE;
      await k('notifications').where({ id: input.notificationId }).update({ status: permanent ? 'failed' : 'queued', error: message.slice(0, 2000), updated_at: new Date() });
      if (!permanent) throw err; // retried with backoff by the activity's retry policy
      if (input.job.contactMethodId) {
        await k('contact_methods').where({ id: input.job.contactMethodId }).update({ disabled_at: new Date(), disabled_reason: message.slice(0, 2000) });
      }
      return recordPageOutcome(k, input, { status: 'failed', channel: route.channel, target: route.address, error: message, fallbackReason: route.fallbackReason });
    }
  }

  /** The page's retries ran out: the attempt is recorded as failed and the timeline says so. */
  async function recordPageFailed(input: SendPageInput & { reason: string }): Promise<PageOutcome> {
    const k = knex();
    const row = await k('notifications').where({ id: input.notificationId }).first();
    const outcome: PageOutcome = { status: 'failed', channel: row?.channel ?? input.job.channel, target: row?.target ?? input.job.address, error: `gave up after retries: ${input.reason}`, fallbackReason: row?.fallback_reason ?? null };
    const incident = await k('incidents').select('organization_id').where({ id: input.incidentId }).first();
    if (incident) await upsertRow(k, input, incident.organization_id, outcome, row?.reply_code ?? null);
    await k('notifications').where({ id: input.notificationId }).update({ status: 'failed', error: outcome.error!.slice(0, 2000), updated_at: new Date() });
    return recordPageOutcome(k, input, outcome);
  }

  return { sendPage, recordPageFailed };
}

function outcomeOf(row: Record<string, any>): PageOutcome {
  return { status: row.status, channel: row.channel, target: row.target, error: row.error, fallbackReason: row.fallback_reason, provider: row.provider ?? undefined };
}

/** Channels with a registry quota (SMS, voice) count per user per month; over it, the page goes by email. */
async function routeWithQuota(k: Knex, input: SendPageInput, plan: Plan): Promise<{ channel: ChannelId; address: string; fallbackReason: string | null }> {
  const { job } = input;
  if (!job.userId || !CHANNELS[job.channel].quota) return { channel: job.channel, address: job.address, fallbackReason: null };
  const [{ used }] = await k('notifications')
    .count({ used: '*' })
    .where({ user_id: job.userId, channel: job.channel })
    .whereIn('status', ['queued', 'sent', 'delivered'])
    .where('created_at', '>=', monthStart(new Date()))
    .whereNot({ id: input.notificationId });
  const reason = quotaFallbackReason(plan, job.channel, Number(used));
  if (!reason) return { channel: job.channel, address: job.address, fallbackReason: null };
  const email = await k('contact_methods').select('address').where({ user_id: job.userId, type: 'email' }).whereNull('disabled_at').first();
  const user = await k('users').select('email').where({ id: job.userId }).first();
  return { channel: 'email', address: email?.address ?? user.email, fallbackReason: reason };
}

async function upsertRow(k: Knex, input: SendPageInput, organizationId: string, o: PageOutcome, replyCode: number | null): Promise<void> {
  const now = new Date();
  await k('notifications')
    .insert({
      id: input.notificationId, organization_id: organizationId, incident_id: input.incidentId, user_id: input.job.userId,
      contact_method_id: input.job.contactMethodId, channel: o.channel, target: o.target, provider: null, provider_message_id: null,
      status: o.status, error: o.error, reply_code: replyCode, fallback_reason: o.fallbackReason, escalation_step: input.step, created_at: now, updated_at: now,
    })
    .onConflict('id')
    .merge(['status', 'error', 'channel', 'target', 'fallback_reason', 'updated_at']);
}

async function inAppNotification(k: Knex, input: SendPageInput, incident: Record<string, any>): Promise<void> {
  await k('user_notifications')
    .insert({
      id: input.notificationId, organization_id: incident.organization_id, user_id: input.job.userId, incident_id: input.incidentId,
      title: `#${incident.number} ${String(incident.title).slice(0, 200)}`, body: `${incident.severity} incident triggered`, read_at: null, created_at: new Date(),
    })
    .onConflict('id')
    .ignore();
}
