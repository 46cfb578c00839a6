import { Migration } from '@mikro-orm/migrations';

/**
 * Single sign-on's trust boundaries (docs/security.md, "Single sign-on and SCIM trust boundaries").
 *
 * `external_identities`: a link from an IdP's `(issuer, subject)` to an account holds only in the
 * workspace whose connection made it: unique per `(organization_id, issuer, subject)`.
 *
 * `sso_domains`: a listing is per workspace (several may list a domain) and routes nothing until
 * proven by a DNS TXT record `klaxon-verification=<verification_token>`; at most one workspace holds
 * a domain proven (a partial unique index). Existing listings get a token and start unproven.
 *
 * `users.provisioned_by_organization_id`: the workspace whose provisioning (SCIM, or a just-in-time
 * SSO sign-in) made the account; null for accounts people made themselves. Filled for existing
 * accounts from the rows those paths wrote in the same transaction as the account (same timestamp).
 */
export class Migration20261212090000_sso_trust_boundaries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "external_identities" drop constraint "external_identities_issuer_subject_unique";`);
    this.addSql(
      `alter table "external_identities" add constraint "external_identities_organization_id_issuer_subject_unique" unique ("organization_id", "issuer", "subject");`,
    );

    this.addSql(`alter table "sso_domains" drop constraint "sso_domains_pkey";`);
    this.addSql(`drop index if exists "sso_domains_organization_id_index";`);
    this.addSql(`alter table "sso_domains" add column "verification_token" varchar(64) null, add column "verified_at" timestamptz null;`);
    this.addSql(`update "sso_domains" set "verification_token" = replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');`);
    this.addSql(`alter table "sso_domains" alter column "verification_token" set not null;`);
    this.addSql(`alter table "sso_domains" add constraint "sso_domains_pkey" primary key ("organization_id", "domain");`);
    this.addSql(`create index "sso_domains_domain_index" on "sso_domains" ("domain");`);
    this.addSql(`create unique index "sso_domains_proven_domain_unique" on "sso_domains" ("domain") where "verified_at" is not null;`);

    this.addSql(`alter table "users" add column "provisioned_by_organization_id" uuid null;`);
    this.addSql(
      `update "users" u set "provisioned_by_organization_id" = s."organization_id" from "scim_users" s where s."user_id" = u."id" and s."created_at" = u."created_at";`,
    );
    this.addSql(
      `update "users" u set "provisioned_by_organization_id" = e."organization_id" from "external_identities" e where e."user_id" = u."id" and e."created_at" = u."created_at" and u."provisioned_by_organization_id" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users" drop column "provisioned_by_organization_id";`);
    this.addSql(`drop index if exists "sso_domains_proven_domain_unique";`);
    this.addSql(`drop index if exists "sso_domains_domain_index";`);
    this.addSql(`alter table "sso_domains" drop constraint "sso_domains_pkey";`);
    // Back to one workspace per domain: the proven listing wins, else the oldest token's row is arbitrary.
    this.addSql(
      `delete from "sso_domains" d using "sso_domains" o where d."domain" = o."domain" and d."organization_id" <> o."organization_id" and (o."verified_at" is not null or (d."verified_at" is null and o."organization_id" < d."organization_id"));`,
    );
    this.addSql(`alter table "sso_domains" drop column "verification_token", drop column "verified_at";`);
    this.addSql(`alter table "sso_domains" add constraint "sso_domains_pkey" primary key ("domain");`);
    this.addSql(`create index "sso_domains_organization_id_index" on "sso_domains" ("organization_id");`);
    this.addSql(`alter table "external_identities" drop constraint "external_identities_organization_id_issuer_subject_unique";`);
    this.addSql(
      `delete from "external_identities" d using "external_identities" o where d."issuer" = o."issuer" and d."subject" = o."subject" and d."id" > o."id";`,
    );
    this.addSql(`alter table "external_identities" add constraint "external_identities_issuer_subject_unique" unique ("issuer", "subject");`);
  }
}
