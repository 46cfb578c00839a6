import { Migration } from '@mikro-orm/migrations';

/**
 * Chat destinations per service become one generic table (docs/chat.md, "Per-service
 * destinations"): a row per (service, provider) with the provider's non-secret settings and its
 * secret fields, each sealed on its own (`{"webhook_url": "v1.…"}`), so the Teams URL moves as the
 * sealed text it already is, never opened here. A Slack channel becomes provider `slack` with
 * `{channel_id, channel_name}`; a Teams Workflows URL provider `microsoft-teams` with the secret
 * `webhook_url`. `updated_at` is kept: Slack only posts events newer than its channel's setting.
 * The old table goes. `chat_action_nonces` records the one-use action tokens of chat messages
 * that were used, until they expire. The one chat consumer takes over the Teams feed position.
 */
export class Migration20261217110000_chat_destinations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "service_chat_destinations" (
      "service_id" uuid not null,
      "provider" varchar(64) not null,
      "organization_id" uuid not null,
      "settings" jsonb not null,
      "secrets_sealed" jsonb null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "service_chat_destinations_pkey" primary key ("service_id", "provider"));`);
    this.addSql(`create index "service_chat_destinations_organization_id_index" on "service_chat_destinations" ("organization_id");`);
    this.addSql(`create index "service_chat_destinations_provider_index" on "service_chat_destinations" ("provider");`);
    this.addSql(`insert into "service_chat_destinations" ("service_id", "provider", "organization_id", "settings", "secrets_sealed", "created_at", "updated_at")
      select "service_id", 'slack', "organization_id", jsonb_build_object('channel_id', "slack_channel_id", 'channel_name', coalesce("slack_channel_name", "slack_channel_id")), null, "updated_at", "updated_at"
      from "service_chat_settings" where "slack_channel_id" is not null;`);
    this.addSql(`insert into "service_chat_destinations" ("service_id", "provider", "organization_id", "settings", "secrets_sealed", "created_at", "updated_at")
      select "service_id", 'microsoft-teams', "organization_id", '{}'::jsonb, jsonb_build_object('webhook_url', "teams_webhook_url_sealed"), "updated_at", "updated_at"
      from "service_chat_settings" where "teams_webhook_url_sealed" is not null;`);
    this.addSql(`drop table "service_chat_settings";`);
    this.addSql(`create table "chat_action_nonces" (
      "nonce" varchar(64) not null,
      "incident_id" uuid not null,
      "used_at" timestamptz not null default now(),
      "expires_at" timestamptz not null,
      constraint "chat_action_nonces_pkey" primary key ("nonce"));`);
    this.addSql(`create index "chat_action_nonces_expires_at_index" on "chat_action_nonces" ("expires_at");`);
    // One consumer now posts every chat provider's messages: it takes over the Teams consumer's
    // feed position, so no event is posted twice or missed; Teams' pending rows stay as they are.
    this.addSql(`insert into "incident_event_consumers" ("name", "position_xid", "position_seq", "updated_at")
      select 'chat', "position_xid", "position_seq", now() from "incident_event_consumers" where "name" = 'microsoft-teams'
      on conflict ("name") do nothing;`);
    this.addSql(`delete from "incident_event_consumers" where "name" = 'microsoft-teams';`);
  }

  override async down(): Promise<void> {
    this.addSql(`update "incident_event_consumers" set "name" = 'microsoft-teams' where "name" = 'chat'
      and not exists (select 1 from "incident_event_consumers" where "name" = 'microsoft-teams');`);
    this.addSql(`drop table if exists "chat_action_nonces";`);
    this.addSql(`create table "service_chat_settings" (
      "service_id" uuid not null,
      "organization_id" uuid not null,
      "slack_channel_id" varchar(32) null,
      "slack_channel_name" varchar(255) null,
      "teams_webhook_url_sealed" text null,
      "updated_at" timestamptz not null default now(),
      constraint "service_chat_settings_pkey" primary key ("service_id"));`);
    this.addSql(`create index "service_chat_settings_organization_id_index" on "service_chat_settings" ("organization_id");`);
    this
      .addSql(`insert into "service_chat_settings" ("service_id", "organization_id", "slack_channel_id", "slack_channel_name", "teams_webhook_url_sealed", "updated_at")
      select "service_id", min("organization_id"::text)::uuid,
        max("settings"->>'channel_id') filter (where "provider" = 'slack'),
        max("settings"->>'channel_name') filter (where "provider" = 'slack'),
        max("secrets_sealed"->>'webhook_url') filter (where "provider" = 'microsoft-teams'),
        max("updated_at")
      from "service_chat_destinations" where "provider" in ('slack', 'microsoft-teams') group by "service_id";`);
    this.addSql(`drop table if exists "service_chat_destinations";`);
  }
}
