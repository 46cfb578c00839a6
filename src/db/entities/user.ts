import { EntitySchema } from '@mikro-orm/core';

/** A person who can sign in; belongs to workspaces through memberships. */
export interface User {
  id: string;
  email: string;
  passwordHash: string;
  verified: boolean;
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
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
