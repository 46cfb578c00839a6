import { Migration } from '@mikro-orm/migrations';

/**
 * The watchdog's canary (docs/reliability.md): a workspace marked `canary` (it pages nobody: the
 * paging activity records the canary's success instead of calling a provider) and one row of the
 * canary's state: its workspace, the current run (claimed by one API process of a cluster per
 * interval) and the last run whose page went out within the deadline.
 */
export class Migration20261218090000_watchdog_canary extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "organizations" add column "canary" boolean not null default false;`);
    this.addSql(
      `create table "watchdog_canary" ("id" int not null, "organization_id" uuid not null, "source_id" uuid not null, "run_id" uuid null, "run_started_at" timestamptz null, "last_success_at" timestamptz null, "last_success_ms" int null, constraint "watchdog_canary_pkey" primary key ("id"), constraint "watchdog_canary_one_row_check" check ("id" = 1));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "watchdog_canary";`);
    this.addSql(`alter table "organizations" drop column "canary";`);
  }
}
