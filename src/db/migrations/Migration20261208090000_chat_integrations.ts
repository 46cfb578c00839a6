import { Migration } from '@mikro-orm/migrations';

/**
 * Chat (docs/chat.md): a workspace's Slack installation (its bot token sealed under
 * KLAXON_SECRET) and each service's chat destinations (a Slack channel, a Teams Workflows
 * webhook URL, sealed: the URL carries its own credential). No foreign keys, like the other
 * tables: deleting a service or a workspace removes these rows itself.
 */
export class Migration20261208090000_chat_integrations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "slack_installations" (
      "id" uuid not null,
      "organization_id" uuid not null constraint "slack_installations_organization_id_unique" unique,
      "slack_team_id" varchar(32) not null,
      "slack_team_name" varchar(255) not null,
      "bot_user_id" varchar(32) not null,
      "bot_token_sealed" text not null,
      "scopes" text not null,
      "installed_by" uuid null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "slack_installations_pkey" primary key ("id"));`);
    this.addSql(`create index "slack_installations_slack_team_id_index" on "slack_installations" ("slack_team_id");`);
    this.addSql(`create table "service_chat_settings" (
      "service_id" uuid not null,
      "organization_id" uuid not null,
      "slack_channel_id" varchar(32) null,
      "slack_channel_name" varchar(255) null,
      "teams_webhook_url_sealed" text null,
      "updated_at" timestamptz not null default now(),
      constraint "service_chat_settings_pkey" primary key ("service_id"));`);
    this.addSql(`create index "service_chat_settings_organization_id_index" on "service_chat_settings" ("organization_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "service_chat_settings";`);
    this.addSql(`drop table if exists "slack_installations";`);
  }
}
