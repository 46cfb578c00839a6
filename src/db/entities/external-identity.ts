import { EntitySchema } from '@mikro-orm/core';

/** Who a person is at an identity provider (docs/sso.md): the IdP's issuer and its stable subject for them. */
export interface ExternalIdentity {
  id: string;
  userId: string;
  /** The workspace whose connection linked it: the link holds there only (docs/security.md). */
  organizationId: string;
  /** `oidc` or `saml`. */
  protocol: string;
  /** The OIDC issuer (or SAML IdP entity id). */
  issuer: string;
  /** The IdP's stable id for the person (`sub`, or the SAML NameID). */
  subject: string;
  /** The address the IdP vouched for at the last sign-in. */
  email: string;
  createdAt: Date;
  lastLoginAt: Date | null;
}

export const ExternalIdentitySchema = new EntitySchema<ExternalIdentity>({
  name: 'ExternalIdentity',
  tableName: 'external_identities',
  uniques: [{ properties: ['organizationId', 'issuer', 'subject'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    userId: { type: 'uuid', index: true },
    organizationId: { type: 'uuid' },
    protocol: { type: 'string', length: 8 },
    issuer: { type: 'string', length: 2048 },
    subject: { type: 'string', length: 255 },
    email: { type: 'string', length: 320 },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    lastLoginAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
