import { EntitySchema } from '@mikro-orm/core';

/**
 * An email domain a workspace lists for its identity provider (docs/sso.md). Several workspaces may
 * list one; it routes logins and admits people only once proven (a DNS TXT record
 * `klaxon-verification=<verificationToken>` at the domain), and one workspace at most holds it proven.
 */
export interface SsoDomain {
  organizationId: string;
  /** Lower case, no trailing dot: `acme.com`. */
  domain: string;
  /** What the TXT record must say after `klaxon-verification=`; one per listing. */
  verificationToken: string;
  /** When the TXT record was found; null: listed, not proven. */
  verifiedAt: Date | null;
}

export const SsoDomainSchema = new EntitySchema<SsoDomain>({
  name: 'SsoDomain',
  tableName: 'sso_domains',
  indexes: [{ properties: ['domain'] }],
  uniques: [
    {
      name: 'sso_domains_proven_domain_unique',
      expression: 'create unique index "sso_domains_proven_domain_unique" on "sso_domains" ("domain") where "verified_at" is not null',
    },
  ],
  properties: {
    organizationId: { type: 'uuid', primary: true },
    domain: { type: 'string', length: 253, primary: true },
    verificationToken: { type: 'string', length: 64 },
    verifiedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
