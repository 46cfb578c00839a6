import { Migration } from '@mikro-orm/migrations';

/**
 * Workspace administration (issue 13): the audit log, invitations, TOTP two-factor with recovery
 * codes, step-up on sessions, phone-number verification of contact methods, and the monthly
 * alert count of plans that cap alerts. Contact methods that exist already were set up by
 * operators: they count as verified.
 */
export class Migration20261130090000_administration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "audit_log" ("id" uuid not null, "organization_id" uuid not null, "actor_user_id" uuid null, "actor_kind" varchar(16) not null, "actor_label" varchar(320) not null, "action" varchar(64) not null, "target_type" varchar(32) not null, "target_id" varchar(64) null, "ip" varchar(64) null, "details" jsonb null, "created_at" timestamptz not null, constraint "audit_log_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "audit_log_organization_id_created_at_index" on "audit_log" ("organization_id", "created_at");`);

    this.addSql(
      `create table "invitations" ("id" uuid not null, "organization_id" uuid not null, "email" varchar(320) not null, "role" varchar(32) not null, "token_hash" varchar(64) not null, "invited_by" uuid null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "accepted_at" timestamptz null, "revoked_at" timestamptz null, constraint "invitations_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "invitations_organization_id_index" on "invitations" ("organization_id");`);
    this.addSql(`alter table "invitations" add constraint "invitations_token_hash_unique" unique ("token_hash");`);

    this.addSql(
      `create table "plan_usage" ("organization_id" uuid not null, "period" varchar(7) not null, "alerts" int not null default 0, "notified_80_at" timestamptz null, "notified_100_at" timestamptz null, constraint "plan_usage_pkey" primary key ("organization_id", "period"));`,
    );

    this.addSql(
      `create table "recovery_codes" ("id" uuid not null, "user_id" uuid not null, "code_hash" varchar(64) not null, "used_at" timestamptz null, "created_at" timestamptz not null, constraint "recovery_codes_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "recovery_codes_user_id_index" on "recovery_codes" ("user_id");`);

    this.addSql(
      `alter table "contact_methods" add column "verified_at" timestamptz null, add column "verification_code_hash" varchar(64) null, add column "verification_expires_at" timestamptz null, add column "verification_attempts" int not null default 0;`,
    );
    this.addSql(`update "contact_methods" set "verified_at" = "created_at";`);
    this.addSql(`alter table "sessions" add column "stepped_up_at" timestamptz null;`);
    this.addSql(
      `alter table "users" add column "totp_secret" text null, add column "totp_pending_secret" text null, add column "totp_enabled_at" timestamptz null, add column "totp_last_counter" bigint null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "users" drop column "totp_secret", drop column "totp_pending_secret", drop column "totp_enabled_at", drop column "totp_last_counter";`,
    );
    this.addSql(`alter table "sessions" drop column "stepped_up_at";`);
    this.addSql(
      `alter table "contact_methods" drop column "verified_at", drop column "verification_code_hash", drop column "verification_expires_at", drop column "verification_attempts";`,
    );
    this.addSql(`drop table if exists "recovery_codes" cascade;`);
    this.addSql(`drop table if exists "plan_usage" cascade;`);
    this.addSql(`drop table if exists "invitations" cascade;`);
    this.addSql(`drop table if exists "audit_log" cascade;`);
  }
}
