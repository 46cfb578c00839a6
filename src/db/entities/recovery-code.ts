import { EntitySchema } from '@mikro-orm/core';

/** One of a user's ten single-use two-factor recovery codes, kept as a SHA-256 hash. */
export interface RecoveryCode {
  id: string;
  userId: string;
  codeHash: string;
  usedAt: Date | null;
  createdAt: Date;
}

export const RecoveryCodeSchema = new EntitySchema<RecoveryCode>({
  name: 'RecoveryCode',
  tableName: 'recovery_codes',
  properties: {
    id: { type: 'uuid', primary: true },
    userId: { type: 'uuid', index: true },
    codeHash: { type: 'string', length: 64 },
    usedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
