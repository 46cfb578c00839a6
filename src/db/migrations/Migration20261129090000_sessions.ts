import { Migration } from '@mikro-orm/migrations';

/**
 * Dashboard accounts (docs/architecture.md, "Workspaces, roles and credentials"): server-side sessions behind the `__Host-klaxon_session`
 * cookie (only the cookie value's SHA-256 is stored) and one-time email tokens (verify an
 * address, reset a password), also stored as SHA-256 hashes.
 */
export class Migration20261129090000_sessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "sessions" ("id" uuid not null, "token_hash" varchar(64) not null, "user_id" uuid not null, "organization_id" uuid not null, "csrf_token" varchar(64) not null, "created_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "ip" varchar(64) null, "user_agent" varchar(512) null, constraint "sessions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`alter table "sessions" add constraint "sessions_token_hash_unique" unique ("token_hash");`);

    this.addSql(
      `create table "account_tokens" ("id" uuid not null, "user_id" uuid not null, "purpose" varchar(32) not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null, constraint "account_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "account_tokens_user_id_index" on "account_tokens" ("user_id");`);
    this.addSql(`alter table "account_tokens" add constraint "account_tokens_token_hash_unique" unique ("token_hash");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "account_tokens" cascade;`);
    this.addSql(`drop table if exists "sessions" cascade;`);
  }
}
