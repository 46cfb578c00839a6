import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ChannelSenders } from '../../integrations/types';
import { CHANNELS, type ChannelId } from '../../domain/channels';
import { PLAN_LIMITS, type Plan } from '../../domain/plans';
import { channelIdsOf, testMessage, testRoute, type FormBName, type WebhookTarget } from '../../domain/inbound-webhook-targets';
import { knexOf } from '../../db/knex';
import { assertMayManage, type WebhookActor } from './manage';
import { webhookRow, type InboundWebhookDeps } from './records';
import { memberOwningAddress } from './target-members';

/** What sending a test needs: reading the webhook, and every channel's sender (a provider or the dev inbox). */
export interface TestNotificationDeps extends Pick<InboundWebhookDeps, 'orm'> {
  senders: Pick<ChannelSenders, 'get'>;
}

/** One send of a test, as the caller is told: which channel, to whom, and what the provider said. */
export interface TestSend {
  /** The webhook's channel, as its notification type (`SMS`, `CALL`, `EMAIL`, `PUSH_NOTIF`). */
  notification_type: string;
  /** The channel it went on: the asked one, or `email` when the plan sends it by email. */
  channel: ChannelId;
  /** The address it went to; null when nobody could be reached on the channel. */
  to: string | null;
  /** Who was reached: `address` (the channel's target address), `member` (the channel's target member) or `caller` (no target: you). */
  recipient: 'address' | 'member' | 'caller';
  status: 'sent' | 'failed';
  /** The provider (twilio, sendgrid, smtp, apns, fcm) or dev_inbox. */
  provider: string | null;
  provider_message_id?: string;
  error?: string;
  /** Why it went by email instead (the plan). */
  fallback_reason?: string;
}

/** The answer to a test: every send, and whether the plan sends everything by email. */
export interface TestResult {
  webhook_id: string;
  plan: Plan;
  email_only: boolean;
  sends: TestSend[];
}

const NOTIFICATION_TYPE: Record<FormBName, string> = { sms: 'SMS', voice: 'CALL', email: 'EMAIL', push: 'PUSH_NOTIF' };

/** Where a channel's test goes before the plan has its say: one channel and address, or why none. */
type Recipient =
  { channel: ChannelId; to: string; userId: string | null; kind: TestSend['recipient'] } | { error: string; kind: TestSend['recipient']; channel: ChannelId };

/** A person's first working contact on any of the channels; email falls back to their login. */
async function contactOf(
  orm: MikroORM,
  organizationId: string,
  userId: string,
  channels: ChannelId[],
): Promise<{ channel: ChannelId; to: string } | undefined> {
  const contact = await knexOf(orm)('contact_methods')
    .select('type', 'address')
    .where({ organization_id: organizationId, user_id: userId })
    .whereIn('type', channels)
    .whereNull('disabled_at')
    .whereNotNull('verified_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first();
  if (contact) return { channel: contact.type, to: contact.address };
  if (!channels.includes('email')) return undefined;
  const user = await knexOf(orm)('users').select('email').where({ id: userId }).first();
  return user && { channel: 'email', to: user.email };
}

async function recipientOf(orm: MikroORM, organizationId: string, callerId: string, name: FormBName, target: WebhookTarget | undefined): Promise<Recipient> {
  const channels = channelIdsOf(name);
  if (target && 'address' in target) {
    // Checked again now: the member may have left, or removed that contact, since the webhook was made.
    const owner = name === 'push' ? undefined : await memberOwningAddress(knexOf(orm), organizationId, name, target.address);
    if (!owner)
      return { error: 'the target address no longer belongs to a member of this workspace: nothing was sent to it', kind: 'address', channel: channels[0] };
    return { channel: channels[0], to: target.address, userId: owner, kind: 'address' };
  }
  const userId = target ? target.user_id : callerId;
  const kind = target ? 'member' : 'caller';
  const found = await contactOf(orm, organizationId, userId, channels);
  if (found) return { ...found, userId, kind };
  const whose = target ? 'the target member has' : 'you have';
  return { error: `${whose} no verified ${channels.map((c) => CHANNELS[c].label).join(' or ')} contact method`, kind, channel: channels[0] };
}

/**
 * Sends a real test notification on each of a webhook's channels (docs/architecture.md, "Inbound webhooks"): to the
 * channel's target, or without one to the caller's own contact, through the channel's sender.
 * The plan has its say as for a page (FREE: every channel by email) but a test counts against no
 * quota. Nothing is stored but what the providers (or the dev inbox) keep. `admit` throws to
 * refuse (a rate limit) after the webhook and the caller's right to test it were checked.
 */
export async function sendTestNotification(
  deps: TestNotificationDeps,
  actor: WebhookActor,
  id: string,
  opts: { admit?: (webhookId: string) => Promise<void> } = {},
): Promise<TestResult> {
  const row = await webhookRow(deps, actor.organizationId, id, 'webhooks');
  await assertMayManage(deps, actor, row.service_id);
  // Throttled only once the webhook is known and the caller may test it: refusals spend no budget.
  await opts.admit?.(row.id);
  const { plan } = (await knexOf(deps.orm)('organizations').select('plan').where({ id: actor.organizationId }).first()) as { plan: Plan };
  const message = testMessage(row.name);
  const sends: TestSend[] = [];
  for (const name of (row.channels ?? []) as FormBName[]) {
    const recipient = await recipientOf(deps.orm, actor.organizationId, actor.userId, name, row.target_channels?.[name]);
    const base = { notification_type: NOTIFICATION_TYPE[name], recipient: recipient.kind };
    if ('error' in recipient) {
      sends.push({ ...base, channel: recipient.channel, to: null, status: 'failed', provider: null, error: recipient.error });
      continue;
    }
    const route = testRoute(plan, recipient.channel);
    // By email instead: the email of the member the target reaches (or the caller's).
    const to = route.fallbackReason ? (await contactOf(deps.orm, actor.organizationId, recipient.userId ?? actor.userId, ['email']))!.to : recipient.to;
    const sender = deps.senders.get(route.channel);
    const send = { ...base, channel: route.channel, to, provider: sender.provider, ...(route.fallbackReason && { fallback_reason: route.fallbackReason }) };
    try {
      const renderTest = CHANNELS[route.channel].renderTest;
      if (!renderTest) throw new Error(`${CHANNELS[route.channel].label} takes no test sends`);
      const notificationId = randomUUID();
      const rendered = renderTest({ notificationId, to, message, data: { webhook_id: row.id, test: 'true' } });
      const sent = await sender.send({ ...rendered, notificationId, channel: route.channel, to });
      sends.push({ ...send, provider: sent.provider, status: 'sent', ...(sent.providerMessageId && { provider_message_id: sent.providerMessageId }) });
    } catch (err) {
      sends.push({ ...send, status: 'failed', error: (err instanceof Error ? err.message : String(err)).slice(0, 500) });
    }
  }
  return { webhook_id: row.id, plan, email_only: PLAN_LIMITS[plan].emailPagesOnly, sends };
}
