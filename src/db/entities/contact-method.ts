import { EntitySchema } from '@mikro-orm/core';
import type { ChannelId } from '../../domain/channels';

/** One way to reach a person: a phone number, an email address or a device token. */
export interface ContactMethod {
  id: string;
  organizationId: string;
  userId: string;
  /** The channel it reaches (src/domain/channels.ts). */
  type: ChannelId;
  /** E.164 number, email address or push device token, as the channel normalises it. */
  address: string;
  label: string | null;
  /** Set when a provider reported the address as permanently unusable (bad number, unregistered device). */
  disabledAt: Date | null;
  disabledReason: string | null;
  /** When the owner proved they hold it; a phone number is not paged before. */
  verifiedAt: Date | null;
  /** SHA-256 of the code sent to confirm a new phone number, while one is outstanding. */
  verificationCodeHash: string | null;
  verificationExpiresAt: Date | null;
  verificationAttempts: number;
  /** `import` when an import from PagerDuty or Opsgenie brought it in (docs/importers.md); null when made in Klaxon. */
  source: string | null;
  createdAt: Date;
}

export const ContactMethodSchema = new EntitySchema<ContactMethod>({
  name: 'ContactMethod',
  tableName: 'contact_methods',
  uniques: [{ properties: ['userId', 'type', 'address'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    userId: { type: 'uuid', index: true },
    type: { type: 'string', length: 16 },
    address: { type: 'text' },
    label: { type: 'string', length: 255, nullable: true },
    disabledAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    disabledReason: { type: 'text', nullable: true },
    verifiedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    verificationCodeHash: { type: 'string', length: 64, nullable: true },
    verificationExpiresAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    verificationAttempts: { type: 'integer', default: 0 },
    source: { type: 'string', length: 16, nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
