import { EntitySchema } from '@mikro-orm/core';

/** An email domain whose logins go to a workspace's identity provider (docs/sso.md): one workspace per domain. */
export interface SsoDomain {
  /** Lower case, no trailing dot: `acme.com`. */
  domain: string;
  organizationId: string;
}

export const SsoDomainSchema = new EntitySchema<SsoDomain>({
  name: 'SsoDomain',
  tableName: 'sso_domains',
  properties: {
    domain: { type: 'string', length: 253, primary: true },
    organizationId: { type: 'uuid', index: true },
  },
});
