import { EntitySchema } from '@mikro-orm/core';

export const ACCOUNT_TOKEN_PURPOSES = ['verify_email', 'reset_password'] as const;
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

/** A one-time token sent by email (verify an address, reset a password); stored as a SHA-256 hash. */
export interface AccountToken {
  id: string;
  userId: string;
  purpose: AccountTokenPurpose;
  tokenHash: string;
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: Date;
}

export const AccountTokenSchema = new EntitySchema<AccountToken>({
  name: 'AccountToken',
  tableName: 'account_tokens',
  properties: {
    id: { type: 'uuid', primary: true },
    userId: { type: 'uuid', index: true },
    purpose: { type: 'string', length: 32 },
    tokenHash: { type: 'string', length: 64, unique: true },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
    usedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
