import { Migration } from '@mikro-orm/migrations';

/**
 * The API-key surface (docs/architecture.md, "Workspaces, roles and credentials" and "Inbound webhooks"): API keys; a source's webhook fields (alias,
 * description, PAUSED, sealed ingestion and signing secrets so reads can show the URL and the
 * receiver can check signatures, an IP allowlist, call statistics); Form B's `tags` and `url` on
 * alerts; a user's name, time zone and notification preferences.
 */
export class Migration20261128090000_api_key_surface extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "api_keys" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "name" varchar(100) not null, "key_hash" varchar(64) not null, "display_prefix" varchar(16) not null, "created_at" timestamptz not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, constraint "api_keys_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "api_keys_organization_id_index" on "api_keys" ("organization_id");`);
    this.addSql(`create index "api_keys_user_id_index" on "api_keys" ("user_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);

    this.addSql(
      `alter table "alert_sources" add column "alias" varchar(255) null, add column "description" text null, add column "url_secret_sealed" text null, add column "signing_secret_sealed" text null, add column "ip_allowlist" jsonb null, add column "total_calls" int not null default 0, add column "successful_calls" int not null default 0, add column "failed_calls" int not null default 0, add column "updated_at" timestamptz null;`,
    );
    this.addSql(`alter table "alerts" add column "tags" jsonb null, add column "url" text null;`);
    this.addSql(
      `alter table "users" add column "name" varchar(255) null, add column "time_zone" varchar(64) null, add column "notification_preferences" jsonb null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users" drop column "name", drop column "time_zone", drop column "notification_preferences";`);
    this.addSql(`alter table "alerts" drop column "tags", drop column "url";`);
    this.addSql(
      `alter table "alert_sources" drop column "alias", drop column "description", drop column "url_secret_sealed", drop column "signing_secret_sealed", drop column "ip_allowlist", drop column "total_calls", drop column "successful_calls", drop column "failed_calls", drop column "updated_at";`,
    );
    this.addSql(`drop table if exists "api_keys" cascade;`);
  }
}
