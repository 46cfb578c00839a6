import { EntitySchema } from '@mikro-orm/core';

/** An emailed invitation to join a workspace with a role; the link's token is kept only as a SHA-256 hash. */
export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  tokenHash: string;
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}

export const InvitationSchema = new EntitySchema<Invitation>({
  name: 'Invitation',
  tableName: 'invitations',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    email: { type: 'string', length: 320 },
    role: { type: 'string', length: 32 },
    tokenHash: { type: 'string', length: 64, unique: true },
    invitedBy: { type: 'uuid', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
    acceptedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
