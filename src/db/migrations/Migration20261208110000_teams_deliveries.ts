import { Migration } from '@mikro-orm/migrations';

/**
 * Microsoft Teams cards (docs/chat.md): one row per incident event to post to a service's Teams
 * Workflows webhook, delivered through the incident feed's delivery queue like
 * `outgoing_webhook_deliveries` (its target column is `service_id`: a service has one Teams URL),
 * in `lane_seq` order per service and incident, retried and parked. `skipped_at`: not sent because
 * the workspace's plan has no chat. No foreign keys, like the other tables: the retention purge
 * removes old rows.
 */
export class Migration20261208110000_teams_deliveries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "teams_deliveries" (
      "id" uuid primary key,
      "lane_seq" bigserial not null constraint "teams_deliveries_lane_seq_unique" unique,
      "service_id" uuid not null,
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
      "last_status_code" int null,
      "last_error" text null,
      "latency_ms" int null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "teams_deliveries_pending_index" on "teams_deliveries" ("lane_seq") where "delivered_at" is null and "parked_at" is null;`);
    this.addSql(
      `create index "teams_deliveries_lane_index" on "teams_deliveries" ("service_id", "incident_id", "lane_seq") where "delivered_at" is null and "parked_at" is null;`,
    );
    this.addSql(`create index "teams_deliveries_created_index" on "teams_deliveries" ("created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "teams_deliveries" cascade;`);
  }
}
