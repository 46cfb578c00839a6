import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { knexOf } from '../../db/knex';
import { recordAudit, type AuditActor } from '../audit';
import { conflict, invalid } from '../errors';
import type { Sealer } from '../sealing/seal';
import { deleteRecoveryCodes, recoveryCodesLeft, replaceRecoveryCodes } from './recovery-codes';
import { createSession, sessionFromCookie, sessionViewOf, type ActiveSession, type SessionView } from './sessions';

/** What authenticator apps are told (RFC 6238 defaults, which every app supports). */
export const TOTP_ISSUER = 'Klaxon';
const PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** Codes of the previous and next 30-second step are accepted too: clocks drift. */
const WINDOW = 1;

/** The time step a code belongs to (within ±1 step of now), or undefined when it is not a current code. */
export function matchTotp(secretBase32: string, code: string, now = Date.now()): number | undefined {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = TOTP.validate({ token, secret: Secret.fromBase32(secretBase32), ...PARAMS, timestamp: now, window: WINDOW });
  return delta === null ? undefined : TOTP.counter({ period: PARAMS.period, timestamp: now }) + delta;
}

/**
 * Accepts a code of a user with two-factor on: right for their secret and of a later time step
 * than the last one accepted, so each code works once (the check and the write are one update).
 */
export async function acceptTotpCode(db: Knex, sealer: Sealer, userId: string, code: string): Promise<boolean> {
  const row = (await db('users').select('totp_secret').where({ id: userId }).whereNotNull('totp_enabled_at').first()) as
    { totp_secret: string | null } | undefined;
  const secret = row?.totp_secret ? sealer.open(row.totp_secret) : undefined;
  const counter = secret ? matchTotp(secret, code) : undefined;
  if (counter === undefined) return false;
  const updated = await db('users')
    .update({ totp_last_counter: counter })
    .where({ id: userId })
    .andWhere((q) => q.whereNull('totp_last_counter').orWhere('totp_last_counter', '<', counter));
  return updated === 1;
}

/** True when the user has two-factor on. */
export async function hasTwoFactor(db: Knex, userId: string): Promise<boolean> {
  return Boolean(await db('users').where({ id: userId }).whereNotNull('totp_enabled_at').first('id'));
}

/** GET /api/auth/2fa: whether two-factor is on, since when, and how many recovery codes are left. */
export async function twoFactorStatus(orm: MikroORM, userId: string) {
  const db = knexOf(orm);
  const row = (await db('users').select('totp_enabled_at').where({ id: userId }).first()) as { totp_enabled_at: Date | string | null };
  const enabledAt = row.totp_enabled_at ? new Date(row.totp_enabled_at).toISOString() : null;
  return { enabled: enabledAt !== null, enabled_at: enabledAt, recovery_codes_left: enabledAt ? await recoveryCodesLeft(db, userId) : 0 };
}

const alreadyOn = () => conflict('two-factor authentication is already on; turn it off first to enrol another device', 'two_factor_enabled');

/**
 * Starts enrolment: a new secret, kept sealed as pending until a code confirms it. Answers the
 * `otpauth://` URI, the secret (for typing in) and the URI as an SVG QR code.
 */
export async function startTotpEnrolment(orm: MikroORM, sealer: Sealer, user: { id: string; email: string }) {
  const db = knexOf(orm);
  if (await hasTwoFactor(db, user.id)) throw alreadyOn();
  const secret = new Secret({ size: 20 }).base32;
  const uri = new TOTP({ issuer: TOTP_ISSUER, label: user.email, secret: Secret.fromBase32(secret), ...PARAMS }).toString();
  await db('users')
    .update({ totp_pending_secret: sealer.seal(secret) })
    .where({ id: user.id });
  return { otpauth_uri: uri, secret, qr_svg: await QRCode.toString(uri, { type: 'svg' }) };
}

/**
 * Confirms enrolment with a code from the app: two-factor is on, ten recovery codes are minted
 * (answered once), and the session is rotated (a privilege change): the old cookie ends, the
 * new session counts as stepped up (a second factor was just shown).
 */
export async function confirmTotpEnrolment(
  orm: MikroORM,
  sealer: Sealer,
  session: ActiveSession,
  code: string,
  client: { ip: string; userAgent?: string; actor: AuditActor },
): Promise<SessionView & { cookieValue: string; recovery_codes: string[] }> {
  const db = knexOf(orm);
  const userId = session.user.id;
  const row = (await db('users').select('totp_pending_secret', 'totp_enabled_at').where({ id: userId }).first()) as {
    totp_pending_secret: string | null;
    totp_enabled_at: unknown;
  };
  if (row.totp_enabled_at) throw alreadyOn();
  const pending = row.totp_pending_secret ? sealer.open(row.totp_pending_secret) : undefined;
  if (!pending) throw conflict('no enrolment in progress: start with POST /api/auth/2fa/setup', 'two_factor_not_started');
  const counter = matchTotp(pending, code);
  if (counter === undefined) throw invalid('code: is not the current code of the authenticator app', 'totp_invalid');
  const now = new Date();
  const { cookieValue, codes } = await db.transaction(async (trx) => {
    await trx('users')
      .update({ totp_secret: row.totp_pending_secret, totp_pending_secret: null, totp_enabled_at: now, totp_last_counter: counter })
      .where({ id: userId });
    const codes = await replaceRecoveryCodes(trx, userId, now);
    await trx('sessions').update({ revoked_at: now }).where({ id: session.sessionId });
    const created = await createSession(
      trx,
      { userId, organizationId: session.organization.id, ip: client.ip, userAgent: client.userAgent, signInMethod: session.signInMethod },
      now,
    );
    await trx('sessions').update({ stepped_up_at: now }).where({ id: created.sessionId });
    await recordAudit(
      trx,
      {
        organizationId: session.organization.id,
        actor: client.actor,
        action: 'two_factor.enable',
        targetType: 'user',
        targetId: userId,
        details: { email: session.user.email, recovery_codes: codes.length },
      },
      now,
    );
    return { cookieValue: created.cookieValue, codes };
  });
  const view = sessionViewOf(await sessionFromCookie(orm, cookieValue));
  return { ...view, cookieValue, recovery_codes: codes };
}

/** Turns two-factor off (the caller has just proved a factor) and deletes the recovery codes. */
export async function disableTotp(orm: MikroORM, session: ActiveSession, actor: AuditActor): Promise<void> {
  await knexOf(orm).transaction(async (trx) => {
    if (!(await hasTwoFactor(trx, session.user.id))) throw conflict('two-factor authentication is not on', 'two_factor_disabled');
    await trx('users').update({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_counter: null }).where({ id: session.user.id });
    await deleteRecoveryCodes(trx, session.user.id);
    await recordAudit(trx, {
      organizationId: session.organization.id,
      actor,
      action: 'two_factor.disable',
      targetType: 'user',
      targetId: session.user.id,
      details: { email: session.user.email },
    });
  });
}

/** Replaces the ten recovery codes (the caller has stepped up); answers the new ones once. */
export async function regenerateRecoveryCodes(orm: MikroORM, session: ActiveSession, actor: AuditActor): Promise<string[]> {
  return knexOf(orm).transaction(async (trx) => {
    if (!(await hasTwoFactor(trx, session.user.id))) throw conflict('two-factor authentication is not on: recovery codes come with it', 'two_factor_disabled');
    const codes = await replaceRecoveryCodes(trx, session.user.id);
    await recordAudit(trx, {
      organizationId: session.organization.id,
      actor,
      action: 'recovery_codes.regenerate',
      targetType: 'user',
      targetId: session.user.id,
      details: { email: session.user.email, recovery_codes: codes.length },
    });
    return codes;
  });
}
