import { EntitySchema } from '@mikro-orm/core';

/** An API key (docs/architecture.md, "Workspaces, roles and credentials"): a member's bearer key for the API-key surface; only its SHA-256 is stored. */
export interface ApiKey {
  id: string;
  organizationId: string;
  userId: string;
  name: string;
  keyHash: string;
  /** The first characters of the plaintext, so people can tell their keys apart. */
  displayPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export const ApiKeySchema = new EntitySchema<ApiKey>({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    userId: { type: 'uuid', index: true },
    name: { type: 'string', length: 100 },
    keyHash: { type: 'string', length: 64, unique: true },
    displayPrefix: { type: 'string', length: 16 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    lastUsedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
