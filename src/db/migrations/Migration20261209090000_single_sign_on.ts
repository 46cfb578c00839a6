import { Migration } from '@mikro-orm/migrations';

/**
 * Single sign-on (docs/sso.md): a workspace's identity provider (`sso_connections`, one per
 * workspace, its OIDC client secret sealed under KLAXON_SECRET), the email domains that route a
 * login to it (`sso_domains`: a domain routes to one workspace), the IdP identities each person
 * signed in with (`external_identities`, one per issuer and subject), and the sign-ins under way
 * (`sso_login_attempts`: state, nonce and PKCE verifier kept server-side, spent once). A person
 * who only signs in with SSO has no password (`users.password_hash` null); a session remembers how
 * it was opened (`sessions.sign_in_method`). No foreign keys, like the other tables.
 */
export class Migration20261209090000_single_sign_on extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "users" alter column "password_hash" drop not null;`);
    this.addSql(`alter table "sessions" add column "sign_in_method" varchar(16) not null default 'password';`);
    this.addSql(`create table "sso_connections" (
      "id" uuid not null,
      "organization_id" uuid not null constraint "sso_connections_organization_id_unique" unique,
      "protocol" varchar(8) not null,
      "settings" jsonb not null,
      "client_secret_sealed" text null,
      "default_role" varchar(32) not null,
      "require_sso" boolean not null default false,
      "updated_by" uuid null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "sso_connections_pkey" primary key ("id"));`);
    this.addSql(`create table "sso_domains" (
      "domain" varchar(253) not null,
      "organization_id" uuid not null,
      constraint "sso_domains_pkey" primary key ("domain"));`);
    this.addSql(`create index "sso_domains_organization_id_index" on "sso_domains" ("organization_id");`);
    this.addSql(`create table "external_identities" (
      "id" uuid not null,
      "user_id" uuid not null,
      "organization_id" uuid not null,
      "protocol" varchar(8) not null,
      "issuer" varchar(2048) not null,
      "subject" varchar(255) not null,
      "email" varchar(320) not null,
      "created_at" timestamptz not null default now(),
      "last_login_at" timestamptz null,
      constraint "external_identities_pkey" primary key ("id"));`);
    this.addSql(`create index "external_identities_user_id_index" on "external_identities" ("user_id");`);
    this.addSql(`alter table "external_identities" add constraint "external_identities_issuer_subject_unique" unique ("issuer", "subject");`);
    this.addSql(`create table "sso_login_attempts" (
      "state_hash" varchar(64) not null,
      "organization_id" uuid not null,
      "browser_hash" varchar(64) not null,
      "purpose" varchar(16) not null,
      "session_id" uuid null,
      "secrets_sealed" text not null,
      "created_at" timestamptz not null,
      "expires_at" timestamptz not null,
      constraint "sso_login_attempts_pkey" primary key ("state_hash"));`);
    this.addSql(`create index "sso_login_attempts_expires_at_index" on "sso_login_attempts" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sso_login_attempts";`);
    this.addSql(`drop table if exists "external_identities";`);
    this.addSql(`drop table if exists "sso_domains";`);
    this.addSql(`drop table if exists "sso_connections";`);
    this.addSql(`alter table "sessions" drop column "sign_in_method";`);
    this.addSql(`alter table "users" alter column "password_hash" set not null;`);
  }
}
