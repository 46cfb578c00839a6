import { Migration } from '@mikro-orm/migrations';

/**
 * Paging drills (docs/drills.md): `drills` (one per test page sent to a user, a team or a
 * schedule's on-call people), `drill_results` (one per person × channel: delivered or not,
 * latency, acknowledged or not) and `drill_schedules` (recurring drills, each backed by a Temporal
 * Schedule). One writer: src/services/drills. No foreign keys, like the other tables.
 */
export class Migration20261210090000_drills extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "drills" ("id" uuid not null, "organization_id" uuid not null, "target_type" varchar(16) not null, "target_id" uuid not null, "channels" jsonb null, "created_by" uuid null, "drill_schedule_id" uuid null, "ack_window_seconds" int not null, "created_at" timestamptz not null, "finished_at" timestamptz null, constraint "drills_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "drills_organization_id_created_at_index" on "drills" ("organization_id", "created_at");`);
    this.addSql(`create index "drills_target_id_created_at_index" on "drills" ("target_id", "created_at");`);
    this.addSql(
      `create table "drill_results" ("id" uuid not null, "drill_id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "user_name" varchar(255) not null, "channel" varchar(32) null, "contact_method_id" uuid null, "address" text null, "status" varchar(16) not null, "reply_code" int null, "provider" varchar(32) null, "provider_message_id" varchar(255) null, "latency_ms" int null, "delivered_at" timestamptz null, "acknowledged_at" timestamptz null, "error" text null, "created_at" timestamptz not null, constraint "drill_results_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "drill_results_drill_id_index" on "drill_results" ("drill_id");`);
    this.addSql(`create index "drill_results_address_reply_code_index" on "drill_results" ("address", "reply_code");`);
    this.addSql(`create index "drill_results_provider_message_id_index" on "drill_results" ("provider_message_id");`);
    this.addSql(
      `create table "drill_schedules" ("id" uuid not null, "organization_id" uuid not null, "target_type" varchar(16) not null, "target_id" uuid not null, "channels" jsonb null, "cron" varchar(100) not null, "time_zone" varchar(64) not null, "ack_window_seconds" int not null, "created_by" uuid null, "created_at" timestamptz not null, constraint "drill_schedules_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "drill_schedules_organization_id_index" on "drill_schedules" ("organization_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "drill_schedules" cascade;`);
    this.addSql(`drop table if exists "drill_results" cascade;`);
    this.addSql(`drop table if exists "drills" cascade;`);
  }
}
