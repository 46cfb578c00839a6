import { Migration } from '@mikro-orm/migrations';

/**
 * The published latencies (docs/reliability.md, "Published latencies"): per-minute buckets of the
 * three histograms (/api/status's hour and day, purged after 25 h), their running totals (GET
 * /metrics), which page was each incident's first (counted once), and when a page was first sent
 * (a delivery report's latency is measured from it).
 */
export class Migration20261218120000_published_latencies extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "notifications" add column "sent_at" timestamptz null;`);
    this.addSql(
      `create table "latency_metrics" ("metric" varchar(32) not null, "channel" varchar(16) not null, "carrier" varchar(16) not null, "minute" timestamptz not null, "le_ms" int not null, "count" int not null, "sum_ms" double precision not null, constraint "latency_metrics_pkey" primary key ("metric", "channel", "carrier", "minute", "le_ms"));`,
    );
    this.addSql(
      `create table "latency_totals" ("metric" varchar(32) not null, "channel" varchar(16) not null, "carrier" varchar(16) not null, "le_ms" int not null, "count" bigint not null, "sum_ms" double precision not null, constraint "latency_totals_pkey" primary key ("metric", "channel", "carrier", "le_ms"));`,
    );
    this.addSql(
      `create table "incident_first_pages" ("incident_id" uuid not null, "notification_id" uuid not null, "paged_at" timestamptz not null, constraint "incident_first_pages_pkey" primary key ("incident_id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "incident_first_pages";`);
    this.addSql(`drop table if exists "latency_totals";`);
    this.addSql(`drop table if exists "latency_metrics";`);
    this.addSql(`alter table "notifications" drop column "sent_at";`);
  }
}
