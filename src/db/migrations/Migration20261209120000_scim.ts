import { Migration } from '@mikro-orm/migrations';

/**
 * SCIM 2.0 provisioning (docs/scim.md). `scim_tokens`: the one bearer token of a workspace's
 * identity provider, as a SHA-256 hash (a new one replaces the row; revoking deletes it).
 * `scim_users` / `scim_groups`: what the provider told us about a person or a team that the
 * rest of Klaxon has no column for: its `externalId`, the parts of a person's name, whether the person is active (a
 * deprovisioned person keeps a row so the provider still reads `active: false`), and when SCIM
 * last changed it. Provisioned people have no password: `users.password_hash` became nullable
 * in the single sign-on migration just before this one.
 */
export class Migration20261209120000_scim extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "scim_tokens" (
      "organization_id" uuid not null,
      "token_hash" varchar(64) not null,
      "display_prefix" varchar(16) not null,
      "created_by" uuid null,
      "created_at" timestamptz not null,
      constraint "scim_tokens_pkey" primary key ("organization_id"));`);
    this.addSql(`alter table "scim_tokens" add constraint "scim_tokens_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create table "scim_users" (
      "organization_id" uuid not null,
      "user_id" uuid not null,
      "external_id" varchar(255) null,
      "given_name" varchar(100) null,
      "family_name" varchar(100) null,
      "active" boolean not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "scim_users_pkey" primary key ("organization_id", "user_id"));`);
    this.addSql(`create table "scim_groups" (
      "organization_id" uuid not null,
      "team_id" uuid not null,
      "external_id" varchar(255) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "scim_groups_pkey" primary key ("organization_id", "team_id"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "scim_groups" cascade;`);
    this.addSql(`drop table if exists "scim_users" cascade;`);
    this.addSql(`drop table if exists "scim_tokens" cascade;`);
  }
}
