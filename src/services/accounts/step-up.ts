import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { millis } from '../../db/timestamps';
import { forbidden, invalid } from '../errors';
import type { Sealer } from '../sealing/seal';
import type { AttemptThrottle } from '../throttles';
import { passwordMatches } from './passwords';
import { spendRecoveryCode } from './recovery-codes';
import type { ActiveSession } from './sessions';
import { acceptTotpCode } from './totp';

/** A step-up lets sensitive actions (token creation, new recovery codes) through for this long. */
export const STEP_UP_FRESH_MS = 5 * 60_000;

/** A proof the person is at the keyboard: their password, a TOTP code or a recovery code. */
export interface SecondFactor {
  password?: string;
  totp_code?: string;
  recovery_code?: string;
}

export interface StepUpDeps {
  orm: MikroORM;
  /** Opens TOTP secrets. */
  sealer: Sealer;
  /** Failed step-ups (STEP_UP_LIMITS), counted apart from logins. */
  throttle: AttemptThrottle;
}

const FACTORS = ['password', 'totp_code', 'recovery_code'] as const;

/** The factor the body carries, if any; two at once is 400. */
function factorOf(input: SecondFactor): (typeof FACTORS)[number] | undefined {
  const given = FACTORS.filter((f) => input[f] !== undefined);
  if (given.length > 1) throw invalid(`give one of password, totp_code or recovery_code, not ${given.join(' and ')}`);
  return given[0];
}

/** True when the given factor's value is right for the user; a recovery code is spent by the check. */
async function factorHolds(deps: StepUpDeps, userId: string, kind: (typeof FACTORS)[number], value: string): Promise<boolean> {
  const db = knexOf(deps.orm);
  if (kind === 'totp_code') return acceptTotpCode(db, deps.sealer, userId, value);
  if (kind === 'recovery_code') return spendRecoveryCode(db, userId, value);
  const row = (await db('users').select('password_hash').where({ id: userId }).first()) as { password_hash: string } | undefined;
  return passwordMatches(row?.password_hash ?? null, value);
}

/**
 * Checks one factor (throttled per account and IP: the attempt is reserved before the factor is
 * checked, Throttled past the limit) and marks the session stepped up. A wrong factor is 403
 * `step_up_failed`.
 */
export async function stepUp(
  deps: StepUpDeps,
  session: ActiveSession,
  input: SecondFactor,
  ip: string,
  now = new Date(),
): Promise<{ stepped_up_at: string; fresh_until: string }> {
  const kind = factorOf(input);
  if (!kind) throw invalid('give one of password, totp_code or recovery_code');
  const account = session.user.id;
  const attempt = await deps.throttle.reserve(account, ip);
  // A wrong factor keeps its reserved attempt counted.
  if (!(await factorHolds(deps, session.user.id, kind, input[kind]!)))
    throw forbidden(`the ${kind.replace('_', ' ')} is not right (a TOTP code works once)`, 'step_up_failed');
  await attempt.succeeded();
  await knexOf(deps.orm)('sessions').update({ stepped_up_at: now }).where({ id: session.sessionId });
  return { stepped_up_at: now.toISOString(), fresh_until: new Date(now.getTime() + STEP_UP_FRESH_MS).toISOString() };
}

/**
 * Lets a sensitive action through when the body carries a right factor (checked as a step-up)
 * or the session stepped up in the last 5 minutes; otherwise 403 `step_up_required`.
 */
export async function requireStepUp(deps: StepUpDeps, session: ActiveSession, input: SecondFactor, ip: string): Promise<void> {
  if (factorOf(input)) {
    await stepUp(deps, session, input, ip);
    return;
  }
  const row = (await knexOf(deps.orm)('sessions').select('stepped_up_at').where({ id: session.sessionId }).first()) as
    { stepped_up_at: Date | string | null } | undefined;
  if (row?.stepped_up_at && Date.now() - millis(row.stepped_up_at) <= STEP_UP_FRESH_MS) return;
  throw forbidden('confirm it is you: send password, totp_code or recovery_code, or POST /api/auth/step-up first (good for 5 minutes)', 'step_up_required');
}
