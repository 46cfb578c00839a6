import { Migration } from '@mikro-orm/migrations';

/**
 * Slack messages (docs/chat.md, "Slack messages"): the incident-event feed's Slack consumer.
 *
 * `slack_messages`: the one message an incident has in a channel (its `ts`, known as soon as
 * `chat.postMessage` answers) and a hash of what it shows now, so an unchanged rendering is not
 * sent again. Written only by src/integrations/slack/messages/store.ts.
 *
 * `slack_deliveries`: the queue, one row per feed event per incident per channel, with the
 * columns of `outgoing_webhook_deliveries` (the generic delivery queue of
 * src/services/incident-feed/ claims and retries them, in order per channel × incident lane),
 * plus the thread reply's `ts` (a retried attempt does not reply twice) and `skipped_at` (Slack
 * disconnected or the plan has no chat: parked without an attempt). Written only by
 * src/integrations/slack/messages/deliveries.ts. No foreign keys, like the other tables.
 */
export class Migration20261208100000_slack_messages extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "slack_messages" (
      "id" uuid not null,
      "incident_id" uuid not null,
      "organization_id" uuid not null,
      "channel_id" varchar(32) not null,
      "ts" varchar(32) not null,
      "content_hash" varchar(64) null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "slack_messages_pkey" primary key ("id"));`);
    this.addSql(`alter table "slack_messages" add constraint "slack_messages_incident_id_channel_id_unique" unique ("incident_id", "channel_id");`);

    this.addSql(`create table "slack_deliveries" (
      "id" uuid primary key,
      "lane_seq" bigserial not null constraint "slack_deliveries_lane_seq_unique" unique,
      "channel_id" varchar(32) not null,
      "organization_id" uuid not null,
      "event_id" uuid not null,
      "incident_id" uuid null,
      "type" text not null,
      "event" jsonb not null,
      "attempts" int not null default 0,
      "next_attempt_at" timestamptz null,
      "leased_until" timestamptz null,
      "delivered_at" timestamptz null,
      "parked_at" timestamptz null,
      "skipped_at" timestamptz null,
      "reply_ts" varchar(32) null,
      "last_status_code" int null,
      "last_error" text null,
      "latency_ms" int null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "slack_deliveries_pending_index" on "slack_deliveries" ("lane_seq") where "delivered_at" is null and "parked_at" is null;`);
    this.addSql(
      `create index "slack_deliveries_lane_index" on "slack_deliveries" ("channel_id", "incident_id", "lane_seq") where "delivered_at" is null and "parked_at" is null;`,
    );
    this.addSql(`create index "slack_deliveries_created_index" on "slack_deliveries" ("created_at");`);
    // An incident's rows: its lane's history (a permanent error gives the lane up) and its purge.
    this.addSql(`create index "slack_deliveries_incident_index" on "slack_deliveries" ("incident_id", "channel_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "slack_deliveries" cascade;`);
    this.addSql(`drop table if exists "slack_messages" cascade;`);
  }
}
