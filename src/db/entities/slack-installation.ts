import { EntitySchema } from '@mikro-orm/core';

/** A workspace's Slack app installation (docs/chat.md): one per workspace. */
export interface SlackInstallation {
  id: string;
  organizationId: string;
  /** Slack's workspace id (`T…`), as `oauth.v2.access` answered it. */
  slackTeamId: string;
  slackTeamName: string;
  botUserId: string;
  /** The `xoxb-` bot token, sealed (AES-256-GCM under KLAXON_SECRET). */
  botTokenSealed: string;
  /** The scopes Slack granted, comma-separated as Slack gives them. */
  scopes: string;
  installedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const SlackInstallationSchema = new EntitySchema<SlackInstallation>({
  name: 'SlackInstallation',
  tableName: 'slack_installations',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', unique: true },
    slackTeamId: { type: 'string', length: 32, index: true },
    slackTeamName: { type: 'string', length: 255 },
    botUserId: { type: 'string', length: 32 },
    botTokenSealed: { type: 'text', lazy: true },
    scopes: { type: 'text' },
    installedBy: { type: 'uuid', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    updatedAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
