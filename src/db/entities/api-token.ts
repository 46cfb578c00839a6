import { EntitySchema } from '@mikro-orm/core';
import type { AccessLevel } from '../../domain/api-token';

/** A customer API token's metadata; the secret itself is only kept as a SHA-256 hash. */
export interface ApiToken {
  id: string;
  organizationId: string;
  userId: string;
  tokenHash: string;
  /** The first characters of the plaintext, so people can tell their tokens apart. */
  displayPrefix: string;
  /** An optional label given at creation. */
  name: string | null;
  access: AccessLevel;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

export const ApiTokenSchema = new EntitySchema<ApiToken>({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    userId: { type: 'uuid', index: true },
    tokenHash: { type: 'string', length: 64, unique: true },
    displayPrefix: { type: 'string', length: 16 },
    name: { type: 'string', length: 100, nullable: true },
    access: { type: 'string', length: 16 },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    lastUsedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
