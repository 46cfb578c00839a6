import { Migration } from '@mikro-orm/migrations';

export class Migration20261123032452_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "alert_sources" ("id" uuid not null, "organization_id" uuid not null, "service_id" uuid not null, "name" varchar(255) not null, "token_hash" varchar(64) not null, "status" varchar(16) not null default 'ACTIVE', "created_at" timestamptz not null, "revoked_at" timestamptz null, constraint "alert_sources_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "alert_sources_organization_id_index" on "alert_sources" ("organization_id");`);
    this.addSql(`create index "alert_sources_service_id_index" on "alert_sources" ("service_id");`);
    this.addSql(`alter table "alert_sources" add constraint "alert_sources_token_hash_unique" unique ("token_hash");`);

    this.addSql(
      `create table "api_tokens" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "token_hash" varchar(64) not null, "display_prefix" varchar(16) not null, "access" varchar(16) not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "last_used_at" timestamptz null, "created_at" timestamptz not null, constraint "api_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "api_tokens_organization_id_index" on "api_tokens" ("organization_id");`);
    this.addSql(`create index "api_tokens_user_id_index" on "api_tokens" ("user_id");`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_token_hash_unique" unique ("token_hash");`);

    this.addSql(
      `create table "incidents" ("id" uuid not null, "organization_id" uuid not null, "number" int not null, "service_id" uuid null, "owning_team_id" uuid not null, "title" varchar(255) not null, "description" text null, "severity" varchar(16) not null, "status" varchar(16) not null, "dedup_key" varchar(255) null, "alert_count" int not null default 0, "last_seq" int not null default 0, "created_at" timestamptz not null, "acknowledged_at" timestamptz null, "resolved_at" timestamptz null, "closed_at" timestamptz null, "updated_at" timestamptz not null, constraint "incidents_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "incidents_service_id_index" on "incidents" ("service_id");`);
    this.addSql(`create index "incidents_org_created_idx" on "incidents" ("organization_id", "created_at" desc, "id" desc);`);
    this.addSql(`create index "incidents_org_status_created_idx" on "incidents" ("organization_id", "status", "created_at" desc, "id" desc);`);
    this.addSql(`alter table "incidents" add constraint "incidents_organization_id_number_unique" unique ("organization_id", "number");`);

    this.addSql(
      `create table "memberships" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "role" varchar(32) not null, "created_at" timestamptz not null, constraint "memberships_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "memberships_user_id_index" on "memberships" ("user_id");`);
    this.addSql(`alter table "memberships" add constraint "memberships_organization_id_user_id_unique" unique ("organization_id", "user_id");`);

    this.addSql(
      `create table "monitors" ("id" uuid not null, "organization_id" uuid not null, "service_id" uuid not null, "name" varchar(255) not null, "type" varchar(32) not null, "target" text not null, "interval_seconds" int not null, "status" varchar(16) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "monitors_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "monitors_service_id_index" on "monitors" ("service_id");`);
    this.addSql(`create index "monitors_organization_id_created_at_index" on "monitors" ("organization_id", "created_at");`);

    this.addSql(
      `create table "organizations" ("id" uuid not null, "name" varchar(255) not null, "plan" varchar(16) not null, "incident_seq" int not null default 0, "created_at" timestamptz not null, constraint "organizations_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create table "services" ("id" uuid not null, "organization_id" uuid not null, "team_id" uuid not null, "name" varchar(255) not null, "description" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "services_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "services_team_id_index" on "services" ("team_id");`);
    this.addSql(`create index "services_organization_id_created_at_index" on "services" ("organization_id", "created_at");`);

    this.addSql(
      `create table "teams" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(255) not null, "created_at" timestamptz not null, constraint "teams_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "teams_organization_id_index" on "teams" ("organization_id");`);

    this.addSql(
      `create table "timeline_entries" ("id" uuid not null, "incident_id" uuid not null, "organization_id" uuid not null, "seq" int not null, "type" varchar(32) not null, "from_status" varchar(16) null, "to_status" varchar(16) null, "actor_type" varchar(16) not null, "actor_id" uuid null, "via" varchar(32) null, "message" text not null, "created_at" timestamptz not null, constraint "timeline_entries_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "timeline_entries_organization_id_index" on "timeline_entries" ("organization_id");`);
    this.addSql(`alter table "timeline_entries" add constraint "timeline_entries_incident_id_seq_unique" unique ("incident_id", "seq");`);

    this.addSql(
      `create table "users" ("id" uuid not null, "email" varchar(320) not null, "password_hash" text not null, "verified" boolean not null default false, "created_at" timestamptz not null, constraint "users_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
  }
}
