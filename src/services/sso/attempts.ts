/**
 * The one writer of `sso_login_attempts` (docs/sso.md): a sign-in sent to the identity provider,
 * kept server-side under the SHA-256 of its `state`, bound to the browser that started it by a
 * short-lived cookie, and spent on its return (deleted whatever the outcome: good once).
 */
import type { Knex } from '@mikro-orm/postgresql';
import { millis } from '../../db/timestamps';
import { constantTimeEqual, randomSecret, sha256Hex } from '../accounts/secrets';
import type { Sealer } from '../sealing/seal';

/** How long a person has to sign in at the IdP and come back. */
export const SSO_ATTEMPT_TTL_MS = 10 * 60_000;

/** Longest `state` accepted back (ours are 43 characters). */
export const MAX_STATE_LENGTH = 128;

export type AttemptPurpose = 'login' | 'step_up';

/** An attempt as it came back: its workspace, purpose and the secrets its method kept. */
export interface SpentAttempt {
  organizationId: string;
  purpose: AttemptPurpose;
  sessionId: string | null;
  secrets: Record<string, string>;
}

/** Records a new attempt; answers its `state` (sent to the IdP) and the browser cookie's value (kept by the browser). */
export async function recordAttempt(
  db: Knex,
  sealer: Sealer,
  input: { state: string; organizationId: string; purpose: AttemptPurpose; sessionId?: string; secrets: Record<string, string> },
  now = new Date(),
): Promise<{ browserValue: string }> {
  const browserValue = randomSecret();
  // Expired attempts are removed as new ones come: the table holds only the last ten minutes.
  await db('sso_login_attempts').delete().where('expires_at', '<', now);
  await db('sso_login_attempts').insert({
    state_hash: sha256Hex(input.state),
    organization_id: input.organizationId,
    browser_hash: sha256Hex(browserValue),
    purpose: input.purpose,
    session_id: input.sessionId ?? null,
    secrets_sealed: sealer.seal(JSON.stringify(input.secrets)),
    created_at: now,
    expires_at: new Date(now.getTime() + SSO_ATTEMPT_TTL_MS),
  });
  return { browserValue };
}

/** A fresh `state`: 256 random bits. */
export const newState = (): string => randomSecret();

/**
 * Spends the attempt a `state` names: deleted at once (a replay finds nothing), then answered only
 * when it has not expired and the browser holds the cookie of the one that started it.
 */
export async function spendAttempt(
  db: Knex,
  sealer: Sealer,
  state: string,
  browserValue: string | undefined,
  now = new Date(),
): Promise<SpentAttempt | undefined> {
  if (!state || state.length > MAX_STATE_LENGTH) return undefined;
  const [row] = (await db('sso_login_attempts')
    .delete()
    .where({ state_hash: sha256Hex(state) })
    .returning('*')) as Array<{
    organization_id: string;
    browser_hash: string;
    purpose: AttemptPurpose;
    session_id: string | null;
    secrets_sealed: string;
    expires_at: Date | string;
  }>;
  if (!row || millis(row.expires_at) <= now.getTime()) return undefined;
  if (!browserValue || !constantTimeEqual(sha256Hex(browserValue), row.browser_hash)) return undefined;
  const opened = sealer.open(row.secrets_sealed);
  if (!opened) return undefined;
  return { organizationId: row.organization_id, purpose: row.purpose, sessionId: row.session_id, secrets: JSON.parse(opened) as Record<string, string> };
}
