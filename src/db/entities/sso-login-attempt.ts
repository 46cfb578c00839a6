import { EntitySchema } from '@mikro-orm/core';

/**
 * A sign-in sent to an identity provider and not yet back (docs/sso.md): found by the SHA-256 of
 * its `state`, bound to the browser that started it, deleted when it returns (good once).
 */
export interface SsoLoginAttempt {
  stateHash: string;
  organizationId: string;
  /** SHA-256 of the short-lived cookie set on the browser that started it (no login CSRF). */
  browserHash: string;
  /** `login`, or `step_up` (re-authentication at the IdP for a signed-in session). */
  purpose: string;
  /** The session a step-up is for. */
  sessionId: string | null;
  /** The nonce and PKCE verifier (and anything else the method needs back), sealed JSON. */
  secretsSealed: string;
  createdAt: Date;
  expiresAt: Date;
}

export const SsoLoginAttemptSchema = new EntitySchema<SsoLoginAttempt>({
  name: 'SsoLoginAttempt',
  tableName: 'sso_login_attempts',
  properties: {
    stateHash: { type: 'string', length: 64, primary: true },
    organizationId: { type: 'uuid' },
    browserHash: { type: 'string', length: 64 },
    purpose: { type: 'string', length: 16 },
    sessionId: { type: 'uuid', nullable: true },
    secretsSealed: { type: 'text', lazy: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    expiresAt: { type: 'Date', columnType: 'timestamptz', index: true },
  },
});
