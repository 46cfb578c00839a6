import { EntitySchema } from '@mikro-orm/core';

/** A workspace's SCIM bearer token (docs/scim.md): one per workspace, only its SHA-256 hash kept. */
export interface ScimToken {
  organizationId: string;
  tokenHash: string;
  /** The first characters of the plaintext, so admins can tell which token is live. */
  displayPrefix: string;
  createdBy: string | null;
  createdAt: Date;
}

export const ScimTokenSchema = new EntitySchema<ScimToken>({
  name: 'ScimToken',
  tableName: 'scim_tokens',
  properties: {
    organizationId: { type: 'uuid', primary: true },
    tokenHash: { type: 'string', length: 64, unique: true },
    displayPrefix: { type: 'string', length: 16 },
    createdBy: { type: 'uuid', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
