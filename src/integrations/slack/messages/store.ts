/**
 * The one writer of `slack_messages` (docs/chat.md, "Slack messages"): the one message an
 * incident has in a Slack channel. Its `ts` is recorded as soon as `chat.postMessage` answers, so
 * a later attempt updates it instead of posting again.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';

const TABLE = 'slack_messages';

/** An incident's message in a channel, as kept. */
export interface KeptSlackMessage {
  ts: string;
  contentHash: string | null;
}

/** The incident's message in the channel, or undefined when none was posted there. */
export async function findSlackMessage(k: Knex, incidentId: string, channelId: string): Promise<KeptSlackMessage | undefined> {
  const row = await k(TABLE)
    .where({ incident_id: incidentId, channel_id: channelId })
    .first<{ ts: string; content_hash: string | null } | undefined>('ts', 'content_hash');
  return row && { ts: row.ts, contentHash: row.content_hash };
}

/**
 * Keeps a message just posted (or posted again after it was deleted in Slack): the incident's
 * message in the channel is now this one.
 */
export async function keepSlackMessage(
  k: Knex,
  message: { incidentId: string; organizationId: string; channelId: string; ts: string; contentHash: string },
): Promise<void> {
  await k(TABLE)
    .insert({
      id: randomUUID(),
      incident_id: message.incidentId,
      organization_id: message.organizationId,
      channel_id: message.channelId,
      ts: message.ts,
      content_hash: message.contentHash,
    })
    .onConflict(['incident_id', 'channel_id'])
    .merge({ ts: message.ts, content_hash: message.contentHash, updated_at: new Date() });
}

/** Records what the message shows after a `chat.update`. */
export async function updatedSlackMessage(k: Knex, where: { incidentId: string; channelId: string }, contentHash: string): Promise<void> {
  await k(TABLE).where({ incident_id: where.incidentId, channel_id: where.channelId }).update({ content_hash: contentHash, updated_at: new Date() });
}
