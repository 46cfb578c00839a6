import { EntitySchema } from '@mikro-orm/core';

/** A person who can sign in; belongs to workspaces through memberships. */
export interface User {
  id: string;
  email: string;
  passwordHash: string;
  verified: boolean;
  name: string | null;
  /** IANA time zone the user reads times in. */
  timeZone: string | null;
  notificationPreferences: Record<string, unknown> | null;
  createdAt: Date;
}

export const UserSchema = new EntitySchema<User>({
  name: 'User',
  tableName: 'users',
  properties: {
    id: { type: 'uuid', primary: true },
    email: { type: 'string', length: 320, unique: true },
    passwordHash: { type: 'text', lazy: true },
    verified: { type: 'boolean', default: false },
    name: { type: 'string', length: 255, nullable: true },
    timeZone: { type: 'string', length: 64, nullable: true },
    notificationPreferences: { type: 'json', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
