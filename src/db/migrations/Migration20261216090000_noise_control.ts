import { Migration } from '@mikro-orm/migrations';

/**
 * Noise control (docs/grouping.md): each service's grouping rules; on an incident, the rule and
 * group key it was opened under, the source whose alert opened it, and whether it is that source's
 * storm incident; on a source, its storm guard setting. The alerts index serves the replay's range
 * read and the storm guard's count.
 */
export class Migration20261216090000_noise_control extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "service_grouping" ("service_id" uuid not null, "organization_id" uuid not null, "rules" jsonb not null, "updated_at" timestamptz not null, constraint "service_grouping_pkey" primary key ("service_id"));`,
    );
    this.addSql(
      `alter table "incidents" add column "group_rule" varchar(100) null, add column "group_key" text null, add column "opened_by_source_id" uuid null, add column "storm_source_id" uuid null;`,
    );
    this.addSql(`create index "incidents_group_idx" on "incidents" ("service_id", "group_rule", "group_key", "created_at") where "group_key" is not null;`);
    this.addSql(`create index "incidents_opened_by_source_idx" on "incidents" ("opened_by_source_id", "created_at") where "opened_by_source_id" is not null;`);
    this.addSql(`create index "incidents_storm_source_idx" on "incidents" ("storm_source_id") where "storm_source_id" is not null;`);
    this.addSql(`alter table "alert_sources" add column "storm_mode" varchar(8) not null default 'default', add column "storm" jsonb null;`);
    this.addSql(`create index "alerts_service_created_idx" on "alerts" ("service_id", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "alerts_service_created_idx";`);
    this.addSql(`alter table "alert_sources" drop column "storm_mode", drop column "storm";`);
    this.addSql(`drop index if exists "incidents_storm_source_idx";`);
    this.addSql(`drop index if exists "incidents_opened_by_source_idx";`);
    this.addSql(`drop index if exists "incidents_group_idx";`);
    this.addSql(`alter table "incidents" drop column "group_rule", drop column "group_key", drop column "opened_by_source_id", drop column "storm_source_id";`);
    this.addSql(`drop table if exists "service_grouping" cascade;`);
  }
}
