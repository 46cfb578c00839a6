import { Migration } from '@mikro-orm/migrations';

/**
 * The durable incident-event feed and its first consumer, outgoing webhooks (docs/integrations.md).
 *
 * `incident_events`: one row per change of an incident, written by the incident store in the
 * change's own transaction. `xid` (the writing transaction) orders the feed for consumers: a
 * consumer reads only rows whose transaction is older than every transaction still running
 * (`pg_snapshot_xmin`), so a row that commits late can never fall behind a consumer's position.
 *
 * `incident_event_consumers`: each consumer's position in the feed, (xid, seq).
 *
 * `outgoing_webhooks` / `outgoing_webhook_deliveries`: the customer's endpoints and one row per
 * event to deliver to each, retried and parked like the ingestion outbox; `lane_seq` orders a
 * subscription's deliveries of one incident. Like the other tables, no foreign keys: the retention
 * purge and a subscription's delete remove dependent rows themselves.
 */
export class Migration20261205090000_incident_feed extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "incident_events" (
      "seq" bigserial primary key,
      "id" uuid not null constraint "incident_events_id_unique" unique,
      "xid" xid8 not null default pg_current_xact_id(),
      "organization_id" uuid not null,
      "incident_id" uuid not null,
      "type" text not null,
      "incident" jsonb not null,
      "actor" jsonb null,
      "data" jsonb not null default '{}',
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "incident_events_position_index" on "incident_events" ("xid", "seq");`);
    this.addSql(`create index "incident_events_incident_index" on "incident_events" ("incident_id", "seq");`);
    this.addSql(`create index "incident_events_created_index" on "incident_events" ("created_at");`);

    this.addSql(`create table "incident_event_consumers" (
      "name" text primary key,
      "position_xid" xid8 not null default '0',
      "position_seq" bigint not null default 0,
      "updated_at" timestamptz not null default now());`);

    this.addSql(`create table "outgoing_webhooks" (
      "id" uuid primary key,
      "organization_id" uuid not null,
      "url" text not null,
      "description" text null,
      "event_types" jsonb null,
      "service_ids" jsonb null,
      "enabled" boolean not null default true,
      "secret_sealed" text not null,
      "created_by" uuid null,
      "failing_since" timestamptz null,
      "disabled_reason" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "outgoing_webhooks_organization_index" on "outgoing_webhooks" ("organization_id");`);

    this.addSql(`create table "outgoing_webhook_deliveries" (
      "id" uuid primary key,
      "lane_seq" bigserial not null constraint "outgoing_webhook_deliveries_lane_seq_unique" unique,
      "webhook_id" uuid not null,
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
      "last_status_code" int null,
      "last_error" text null,
      "latency_ms" int null,
      "created_at" timestamptz not null default now());`);
    this.addSql(
      `create index "outgoing_webhook_deliveries_pending_index" on "outgoing_webhook_deliveries" ("lane_seq") where "delivered_at" is null and "parked_at" is null;`,
    );
    this.addSql(
      `create index "outgoing_webhook_deliveries_lane_index" on "outgoing_webhook_deliveries" ("webhook_id", "incident_id", "lane_seq") where "delivered_at" is null and "parked_at" is null;`,
    );
    this.addSql(`create index "outgoing_webhook_deliveries_log_index" on "outgoing_webhook_deliveries" ("webhook_id", "created_at" desc);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "outgoing_webhook_deliveries" cascade;`);
    this.addSql(`drop table if exists "outgoing_webhooks" cascade;`);
    this.addSql(`drop table if exists "incident_event_consumers" cascade;`);
    this.addSql(`drop table if exists "incident_events" cascade;`);
  }
}
