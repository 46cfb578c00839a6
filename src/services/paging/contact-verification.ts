import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { hashSecret } from '../../domain/api-token';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { recordAudit, SYSTEM_CLI } from '../audit';
import { conflict, invalid, notFound } from '../errors';
import type { ChangeOptions } from './changes';
import { CONTACT_COLUMNS, contactJson, type ContactMethodJson, type ContactRow } from './contact-rows';

/**
 * Phone-number verification: a new SMS or voice number is paged only once its owner typed back
 * the 6-digit code we texted to it. Only the code's SHA-256 is stored.
 */

export const VERIFICATION = {
  codeTtlMs: 10 * 60_000,
  maxAttempts: 5,
  /** A new code at most this often per number (a resend is an SMS someone pays for). */
  resendIntervalMs: 60_000,
  /** New unverified numbers per person an hour: adding numbers must not become a way to text strangers. */
  newNumbersPerHour: 5,
} as const;

/** Texts `text` to the E.164 number `to` (the SMS channel: a provider, or the dev inbox). */
export type SendVerificationCode = (to: string, text: string) => Promise<void>;

/** Channels whose addresses are phone numbers, which must be verified before they are paged. */
export const isPhoneChannel = (type: string): boolean => type === 'sms' || type === 'voice';

/** A fresh code and the columns that hold its hash, expiry and attempt count. */
export function newVerificationCode(now: Date) {
  const plaintext = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return {
    plaintext,
    columns: {
      verification_code_hash: hashSecret(plaintext),
      verification_expires_at: new Date(now.getTime() + VERIFICATION.codeTtlMs),
      verification_attempts: 0,
    },
  };
}

export async function sendVerificationCode(send: SendVerificationCode, to: string, code: string): Promise<void> {
  await send(
    to,
    `Klaxon: your verification code is ${code}. It expires in ${VERIFICATION.codeTtlMs / 60_000} minutes. If you did not add this number, ignore this message.`,
  );
}

/** A code asked for too soon (a resend within a minute, too many new numbers): the caller answers 429 with Retry-After. */
export class VerificationThrottled extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
    this.name = 'VerificationThrottled';
  }
}

/**
 * Refuses a new unverified number when the person had `newNumbersPerHour` added in the last
 * hour. Counted from the audit log, so deleting numbers does not reset it.
 */
export async function checkNewNumberAllowance(db: Knex, input: { organizationId: string; userId: string }, now = new Date()): Promise<void> {
  const since = new Date(now.getTime() - 3_600_000);
  const rows: Array<{ created_at: Date | string }> = await db('audit_log')
    .select('created_at')
    .where({ organization_id: input.organizationId, action: 'contact_method.create' })
    .andWhere('created_at', '>', since)
    .andWhereRaw(`details->>'user_id' = ? and details->>'verified' = 'false'`, [input.userId])
    .orderBy('created_at')
    .limit(VERIFICATION.newNumbersPerHour);
  if (rows.length < VERIFICATION.newNumbersPerHour) return;
  const wait = new Date(rows[0].created_at).getTime() + 3_600_000 - now.getTime();
  throw new VerificationThrottled(
    Math.max(1, Math.ceil(wait / 1000)),
    `at most ${VERIFICATION.newNumbersPerHour} new phone numbers an hour; verify the ones added, or try again later`,
  );
}

type VerificationRow = ContactRow & { verification_code_hash: string | null; verification_expires_at: Date | string | null; verification_attempts: number };

const COLUMNS = [...CONTACT_COLUMNS, 'verification_code_hash', 'verification_expires_at', 'verification_attempts'];

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Checks a code typed back for a contact method of the workspace. A wrong code counts an
 * attempt (400 `code_invalid`); an expired code or a fifth wrong attempt needs a new code
 * (400 `code_expired`). A method already verified is answered as it is.
 */
export async function verifyContactMethod(
  orm: MikroORM,
  input: { id: string; organizationId: string; code: string },
  opts: ChangeOptions = {},
  now = new Date(),
): Promise<ContactMethodJson> {
  if (!isUuid(input.id)) throw invalid('contact method id must be a UUID');
  // The outcome is decided under the row lock and thrown after commit, so a wrong attempt is counted.
  const outcome = await knexOf(orm).transaction(async (trx) => {
    const row: VerificationRow | undefined = await trx('contact_methods')
      .select(COLUMNS)
      .where({ id: input.id, organization_id: input.organizationId })
      .forUpdate()
      .first();
    if (!row) return { kind: 'missing' as const };
    if (row.verified_at) return { kind: 'ok' as const, row };
    const expires = row.verification_expires_at ? new Date(row.verification_expires_at).getTime() : 0;
    if (!row.verification_code_hash || expires <= now.getTime() || row.verification_attempts >= VERIFICATION.maxAttempts) return { kind: 'expired' as const };
    if (!sameHash(hashSecret(input.code.trim()), row.verification_code_hash)) {
      await trx('contact_methods').where({ id: row.id }).increment('verification_attempts', 1);
      return { kind: 'wrong' as const, left: VERIFICATION.maxAttempts - row.verification_attempts - 1 };
    }
    const verified = { ...row, verified_at: now };
    await trx('contact_methods')
      .where({ id: row.id })
      .update({ verified_at: now, verification_code_hash: null, verification_expires_at: null, verification_attempts: 0 });
    await recordAudit(trx, {
      organizationId: row.organization_id,
      actor: opts.actor ?? SYSTEM_CLI,
      action: 'contact_method.verify',
      targetType: 'contact_method',
      targetId: row.id,
      details: { user_id: row.user_id, type: row.type, label: row.label },
    });
    return { kind: 'ok' as const, row: verified };
  });
  switch (outcome.kind) {
    case 'missing':
      throw notFound(`contact method ${input.id} not found`);
    case 'expired':
      throw invalid('code: this code has expired or was tried too many times; ask for a new one (POST …/resend)', 'code_expired');
    case 'wrong':
      throw invalid(`code: wrong code; ${outcome.left} attempt(s) left`, 'code_invalid');
    default:
      return contactJson(outcome.row);
  }
}

/**
 * Texts a new code to an unverified phone number (the old one stops working), at most once a
 * minute: sooner throws `VerificationThrottled`.
 */
export async function resendVerificationCode(
  orm: MikroORM,
  input: { id: string; organizationId: string },
  sendCode: SendVerificationCode,
  now = new Date(),
): Promise<{ id: string; expires_at: string }> {
  if (!isUuid(input.id)) throw invalid('contact method id must be a UUID');
  return knexOf(orm).transaction(async (trx) => {
    const row: VerificationRow | undefined = await trx('contact_methods')
      .select(COLUMNS)
      .where({ id: input.id, organization_id: input.organizationId })
      .forUpdate()
      .first();
    if (!row) throw notFound(`contact method ${input.id} not found`);
    if (row.verified_at) throw conflict(`contact method ${row.id} is already verified`, 'already_verified');
    if (row.verification_expires_at) {
      const sentAt = new Date(row.verification_expires_at).getTime() - VERIFICATION.codeTtlMs;
      const wait = sentAt + VERIFICATION.resendIntervalMs - now.getTime();
      if (wait > 0) throw new VerificationThrottled(Math.ceil(wait / 1000), `a code was sent less than a minute ago; ask again in ${Math.ceil(wait / 1000)} s`);
    }
    const code = newVerificationCode(now);
    await trx('contact_methods').where({ id: row.id }).update(code.columns);
    await sendVerificationCode(sendCode, row.address, code.plaintext);
    return { id: row.id, expires_at: code.columns.verification_expires_at.toISOString() };
  });
}
