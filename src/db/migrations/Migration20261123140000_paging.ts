import { Migration } from '@mikro-orm/migrations';

export class Migration20261123140000_paging extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "contact_methods" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "type" varchar(16) not null, "address" text not null, "label" varchar(255) null, "disabled_at" timestamptz null, "disabled_reason" text null, "created_at" timestamptz not null, constraint "contact_methods_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "contact_methods_organization_id_index" on "contact_methods" ("organization_id");`);
    this.addSql(`create index "contact_methods_user_id_index" on "contact_methods" ("user_id");`);
    this.addSql(`alter table "contact_methods" add constraint "contact_methods_user_id_type_address_unique" unique ("user_id", "type", "address");`);

    this.addSql(
      `create table "dev_outbox" ("id" uuid not null, "channel" varchar(16) not null, "to" text not null, "subject" text null, "body" text not null, "payload" jsonb not null, "created_at" timestamptz not null, constraint "dev_outbox_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "dev_outbox_created_at_index" on "dev_outbox" ("created_at");`);

    this.addSql(
      `create table "escalation_policies" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(255) not null, "steps" jsonb not null, "repeat" int not null default 0, "ack_timeout_seconds" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "escalation_policies_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "escalation_policies_organization_id_index" on "escalation_policies" ("organization_id");`);

    this.addSql(
      `create table "notifications" ("id" uuid not null, "organization_id" uuid not null, "incident_id" uuid not null, "user_id" uuid null, "contact_method_id" uuid null, "channel" varchar(16) not null, "target" text not null, "provider" varchar(16) null, "provider_message_id" varchar(255) null, "status" varchar(16) not null, "error" text null, "reply_code" int null, "fallback_reason" text null, "escalation_step" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "notifications_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "notifications_provider_message_id_index" on "notifications" ("provider_message_id");`);
    this.addSql(`create index "notifications_incident_id_created_at_index" on "notifications" ("incident_id", "created_at");`);
    this.addSql(`create index "notifications_user_id_created_at_index" on "notifications" ("user_id", "created_at");`);
    this.addSql(`create index "notifications_target_created_at_index" on "notifications" ("target", "created_at");`);

    this.addSql(
      `create table "notification_rules" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "contact_method_id" uuid not null, "delay_seconds" int not null, "created_at" timestamptz not null, constraint "notification_rules_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "notification_rules_organization_id_index" on "notification_rules" ("organization_id");`);
    this.addSql(`create index "notification_rules_user_id_index" on "notification_rules" ("user_id");`);
    this.addSql(`create index "notification_rules_contact_method_id_index" on "notification_rules" ("contact_method_id");`);
    this.addSql(
      `alter table "notification_rules" add constraint "notification_rules_contact_method_id_delay_seconds_unique" unique ("contact_method_id", "delay_seconds");`,
    );

    this.addSql(
      `create table "schedules" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(255) not null, "time_zone" varchar(64) not null, "layers" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "schedules_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "schedules_organization_id_index" on "schedules" ("organization_id");`);

    this.addSql(
      `create table "schedule_overrides" ("id" uuid not null, "schedule_id" uuid not null, "user_id" uuid not null, "starts_at" timestamptz not null, "ends_at" timestamptz not null, "created_at" timestamptz not null, constraint "schedule_overrides_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "schedule_overrides_schedule_id_ends_at_index" on "schedule_overrides" ("schedule_id", "ends_at");`);

    this.addSql(
      `create table "team_members" ("team_id" uuid not null, "user_id" uuid not null, "created_at" timestamptz not null, constraint "team_members_pkey" primary key ("team_id", "user_id"));`,
    );
    this.addSql(`create index "team_members_user_id_index" on "team_members" ("user_id");`);

    this.addSql(
      `create table "user_notifications" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "incident_id" uuid null, "title" text not null, "body" text not null, "read_at" timestamptz null, "created_at" timestamptz not null, constraint "user_notifications_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "user_notifications_user_id_read_at_index" on "user_notifications" ("user_id", "read_at");`);

    this.addSql(`alter table "alert_sources" add column "channels" jsonb null;`);

    this.addSql(`alter table "services" add column "escalation_policy_id" uuid null;`);
    this.addSql(`create index "services_escalation_policy_id_index" on "services" ("escalation_policy_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "contact_methods" cascade;`);

    this.addSql(`drop table if exists "dev_outbox" cascade;`);

    this.addSql(`drop table if exists "escalation_policies" cascade;`);

    this.addSql(`drop table if exists "notifications" cascade;`);

    this.addSql(`drop table if exists "notification_rules" cascade;`);

    this.addSql(`drop table if exists "schedules" cascade;`);

    this.addSql(`drop table if exists "schedule_overrides" cascade;`);

    this.addSql(`drop table if exists "team_members" cascade;`);

    this.addSql(`drop table if exists "user_notifications" cascade;`);

    this.addSql(`alter table "alert_sources" drop column "channels";`);

    this.addSql(`drop index "services_escalation_policy_id_index";`);
    this.addSql(`alter table "services" drop column "escalation_policy_id";`);
  }
}
