import { EntitySchema } from '@mikro-orm/core';
import type { Role } from '../../domain/roles';

/** A user's role in one workspace. */
export interface Membership {
  id: string;
  organizationId: string;
  userId: string;
  role: Role;
  createdAt: Date;
}

export const MembershipSchema = new EntitySchema<Membership>({
  name: 'Membership',
  tableName: 'memberships',
  uniques: [{ properties: ['organizationId', 'userId'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    userId: { type: 'uuid', index: true },
    role: { type: 'string', length: 32 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
