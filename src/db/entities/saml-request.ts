import { EntitySchema } from '@mikro-orm/core';

/**
 * An AuthnRequest sent to a workspace's IdP, waiting for its answer (src/services/sso/saml/
 * request-cache.ts, its one writer). Declared so the migration and the entities agree.
 */
export interface SamlRequest {
  /** The AuthnRequest's ID: the answer's InResponseTo. */
  id: string;
  organizationId: string;
  /** The opaque RelayState sent with it; the answer must bring it back. */
  relayState: string;
  issuedAt: Date;
  expiresAt: Date;
}

export const SamlRequestSchema = new EntitySchema<SamlRequest>({
  name: 'SamlRequest',
  tableName: 'saml_requests',
  properties: {
    id: { type: 'string', length: 255, primary: true },
    organizationId: { type: 'uuid' },
    relayState: { type: 'string', length: 80 },
    issuedAt: { type: 'Date', columnType: 'timestamptz' },
    expiresAt: { type: 'Date', columnType: 'timestamptz', index: true },
  },
});
