import { EntitySchema } from '@mikro-orm/core';

/** The one Slack message an incident has in a channel (docs/chat.md, "Slack messages"). */
export interface SlackMessageRecord {
  id: string;
  incidentId: string;
  organizationId: string;
  /** The Slack channel (`C…`). */
  channelId: string;
  /** Slack's id of the message in its channel: what `chat.update` and thread replies name. */
  ts: string;
  /** SHA-256 of the text and blocks it shows now; null until known. */
  contentHash: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const SlackMessageSchema = new EntitySchema<SlackMessageRecord>({
  name: 'SlackMessage',
  tableName: 'slack_messages',
  uniques: [{ properties: ['incidentId', 'channelId'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    incidentId: { type: 'uuid' },
    organizationId: { type: 'uuid' },
    channelId: { type: 'string', length: 32 },
    ts: { type: 'string', length: 32 },
    contentHash: { type: 'string', length: 64, nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    updatedAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
