import { Migration } from '@mikro-orm/migrations';

/**
 * SAML sign-in state shared by every API process (src/services/sso/saml, docs/sso-saml.md):
 * `saml_requests` holds each AuthnRequest we sent until its answer claims it (node-saml's
 * InResponseTo cache), `saml_consumed_assertions` every assertion id that signed someone in,
 * until the assertion's own NotOnOrAfter, so none signs in twice. Both are purged of expired rows
 * as new rows come in. No foreign keys, like the other tables.
 */
export class Migration20261209090000_saml extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "saml_requests" ("id" varchar(255) not null, "organization_id" uuid not null, "relay_state" varchar(80) not null, "issued_at" timestamptz not null, "expires_at" timestamptz not null, constraint "saml_requests_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "saml_requests_expires_at_index" on "saml_requests" ("expires_at");`);
    this.addSql(
      `create table "saml_consumed_assertions" ("organization_id" uuid not null, "assertion_id" varchar(255) not null, "consumed_at" timestamptz not null, "expires_at" timestamptz not null, constraint "saml_consumed_assertions_pkey" primary key ("organization_id", "assertion_id"));`,
    );
    this.addSql(`create index "saml_consumed_assertions_expires_at_index" on "saml_consumed_assertions" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "saml_consumed_assertions" cascade;`);
    this.addSql(`drop table if exists "saml_requests" cascade;`);
  }
}
