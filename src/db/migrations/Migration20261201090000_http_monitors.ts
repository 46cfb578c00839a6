import { Migration } from '@mikro-orm/migrations';

/**
 * HTTP monitors (issue 14): how a monitor checks (method, timeout, expected statuses, keyword,
 * failures before an incident), its state from the checks, and every check's result and latency
 * for uptime.
 */
export class Migration20261201090000_http_monitors extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "monitor_checks" ("id" uuid not null, "monitor_id" uuid not null, "organization_id" uuid not null, "checked_at" timestamptz not null, "ok" boolean not null, "status_code" int null, "latency_ms" int null, "error" text null, constraint "monitor_checks_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "monitor_checks_monitor_id_checked_at_index" on "monitor_checks" ("monitor_id", "checked_at");`);
    this.addSql(
      `alter table "monitors" add column "method" varchar(8) not null default 'GET', add column "timeout_seconds" int not null default 10, add column "expected_status_codes" jsonb null, add column "keyword" text null, add column "failure_threshold" int not null default 3, add column "state" varchar(16) not null default 'PENDING', add column "consecutive_failures" int not null default 0, add column "last_checked_at" timestamptz null, add column "open_incident_id" uuid null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "monitors" drop column "method", drop column "timeout_seconds", drop column "expected_status_codes", drop column "keyword", drop column "failure_threshold", drop column "state", drop column "consecutive_failures", drop column "last_checked_at", drop column "open_incident_id";`,
    );
    this.addSql(`drop table if exists "monitor_checks" cascade;`);
  }
}
