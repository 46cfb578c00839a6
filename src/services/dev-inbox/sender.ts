/** The dev inbox: where a channel without provider credentials "sends", so pages stay visible. */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { DevDeliverySchema, type DevDelivery } from '../../db/entities/dev-delivery';
import { DEV_INBOX, type ChannelId } from '../../domain/channels';
import type { ChannelSender, OutgoingPage, SentPage } from '../../integrations/types';

/** A sender that stores each page in `dev_deliveries` instead of calling a provider. */
export function createDevInboxSender(orm: MikroORM, channel: ChannelId): ChannelSender {
  return {
    provider: DEV_INBOX,
    async send(page: OutgoingPage): Promise<SentPage> {
      const em = orm.em.fork();
      const id = randomUUID();
      // The whole rendered page: what the provider would have been asked to deliver.
      const payload = JSON.parse(JSON.stringify(page)) as Record<string, unknown>;
      em.create(DevDeliverySchema, { id, channel, to: page.to, subject: page.subject || null, body: page.text, payload, createdAt: new Date() });
      await em.flush();
      return { provider: DEV_INBOX, providerMessageId: id };
    },
  };
}

/** One stored page as `klaxon inbox list` prints it: the row, its time as ISO text. */
export type DevInboxEntry = Omit<DevDelivery, 'createdAt'> & { created_at: string };

/** The most recent pages in the dev inbox, newest first. */
export async function listDevInbox(orm: MikroORM, { limit }: { limit: number }): Promise<DevInboxEntry[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RangeError('limit must be a whole number from 1 to 1000');
  const rows = await orm.em.fork().find(DevDeliverySchema, {}, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    to: r.to,
    subject: r.subject,
    body: r.body,
    payload: r.payload,
    created_at: r.createdAt.toISOString(),
  }));
}
