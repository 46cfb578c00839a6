import { EntitySchema } from '@mikro-orm/core';

/** A person who can sign in; belongs to workspaces through memberships. */
export interface User {
  id: string;
  email: string;
  /** Null for a person who only ever signs in with SSO (docs/sso.md), or was provisioned by SCIM for it (docs/scim.md). */
  passwordHash: string | null;
  verified: boolean;
  name: string | null;
  /** IANA time zone the user reads times in. */
  timeZone: string | null;
  notificationPreferences: Record<string, unknown> | null;
  /** The TOTP secret, sealed (AES-256-GCM under KLAXON_SECRET); set once enrolment is confirmed. */
  totpSecret: string | null;
  /** An enrolment started but not yet confirmed with a code. */
  totpPendingSecret: string | null;
  totpEnabledAt: Date | null;
  /** The last TOTP time step accepted: a code is good once. */
  totpLastCounter: string | null;
  /** The workspace whose provisioning (SCIM, or a just-in-time SSO sign-in) made the account; null when the person made it (docs/scim.md). */
  provisionedByOrganizationId: string | null;
  createdAt: Date;
}

export const UserSchema = new EntitySchema<User>({
  name: 'User',
  tableName: 'users',
  properties: {
    id: { type: 'uuid', primary: true },
    email: { type: 'string', length: 320, unique: true },
    passwordHash: { type: 'text', lazy: true, nullable: true },
    verified: { type: 'boolean', default: false },
    name: { type: 'string', length: 255, nullable: true },
    timeZone: { type: 'string', length: 64, nullable: true },
    notificationPreferences: { type: 'json', nullable: true },
    totpSecret: { type: 'text', nullable: true, lazy: true },
    totpPendingSecret: { type: 'text', nullable: true, lazy: true },
    totpEnabledAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    totpLastCounter: { type: 'bigint', nullable: true },
    provisionedByOrganizationId: { type: 'uuid', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
