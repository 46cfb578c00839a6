import { EntitySchema } from '@mikro-orm/core';

/**
 * A SAML assertion id that signed someone in to a workspace, kept until the assertion expires so
 * it cannot sign in again (src/services/sso/saml/assertion-replay.ts, its one writer).
 */
export interface SamlConsumedAssertion {
  organizationId: string;
  assertionId: string;
  consumedAt: Date;
  /** The assertion's NotOnOrAfter plus the clock skew: past it the time check refuses it anyway. */
  expiresAt: Date;
}

export const SamlConsumedAssertionSchema = new EntitySchema<SamlConsumedAssertion>({
  name: 'SamlConsumedAssertion',
  tableName: 'saml_consumed_assertions',
  properties: {
    organizationId: { type: 'uuid', primary: true },
    assertionId: { type: 'string', length: 255, primary: true },
    consumedAt: { type: 'Date', columnType: 'timestamptz' },
    expiresAt: { type: 'Date', columnType: 'timestamptz', index: true },
  },
});
