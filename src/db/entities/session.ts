import { EntitySchema } from '@mikro-orm/core';

/** A dashboard session; the cookie value itself is only kept as a SHA-256 hash. */
export interface Session {
  id: string;
  tokenHash: string;
  userId: string;
  organizationId: string;
  /** The synchronizer value state-changing requests echo in `X-CSRF-Token`. */
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** Absolute expiry: the session ends here however active it is. */
  expiresAt: Date;
  revokedAt: Date | null;
  /** The last fresh password, TOTP or recovery-code check in this session (step-up for token creation). */
  steppedUpAt: Date | null;
  /** How the session was opened: `password` (with or without a second factor), `oidc` or `saml` (docs/sso.md). */
  signInMethod: string;
  ip: string | null;
  userAgent: string | null;
}

export const SessionSchema = new EntitySchema<Session>({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    id: { type: 'uuid', primary: true },
    tokenHash: { type: 'string', length: 64, unique: true },
    userId: { type: 'uuid', index: true },
    organizationId: { type: 'uuid' },
    csrfToken: { type: 'string', length: 64 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    lastSeenAt: { type: 'Date', columnType: 'timestamptz' },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    steppedUpAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    signInMethod: { type: 'string', length: 16, default: 'password' },
    ip: { type: 'string', length: 64, nullable: true },
    userAgent: { type: 'string', length: 512, nullable: true },
  },
});
