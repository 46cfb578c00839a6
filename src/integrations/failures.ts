/**
 * The two ways a sender fails. Both are fresh errors carrying only a message: SDK errors hold
 * request configs with credentials (axios `auth`, bearer headers) that a logger or Temporal's
 * failure converter must never see, so they are never passed on as a cause.
 */
import { permanentDeliveryFailure } from './types';

/** Replaces every occurrence of a secret with `[redacted]`: providers sometimes echo what they got. */
export function scrub(message: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = message;
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

/** Retrying cannot help (bad number, unregistered device): the page stops on this channel. */
export function permanentFailure(provider: string, detail: string, secrets: ReadonlyArray<string | undefined> = []): Error {
  return permanentDeliveryFailure(scrub(`${provider}: ${detail}`, secrets));
}

/** The provider refused this page for good (a 4xx that retrying repeats) but the address may still work: the page fails, the contact method stays. */
export function rejectedFailure(provider: string, detail: string, secrets: ReadonlyArray<string | undefined> = []): Error {
  return permanentDeliveryFailure(scrub(`${provider}: ${detail}`, secrets), { keepContact: true });
}

/**
 * A plain error: the send activity retries it with backoff. Its outcome is unknown (a timeout, a
 * connection lost mid-request: the provider may have taken the page), so the retry is marked.
 */
export function retryableFailure(provider: string, detail: string, secrets: ReadonlyArray<string | undefined> = []): Error {
  return new Error(scrub(`${provider}: ${detail}`, secrets));
}

/** Set on errors whose provider answered without taking the page. */
const NOT_ACCEPTED = 'providerDidNotAccept';

/**
 * The provider answered and did not take the page (5xx, 429, bad credentials): retried like any
 * plain error, but the retry cannot double the page, so it is not marked.
 */
export function notAcceptedFailure(provider: string, detail: string, secrets: ReadonlyArray<string | undefined> = []): Error {
  return Object.assign(retryableFailure(provider, detail, secrets), { [NOT_ACCEPTED]: true });
}

/** True when the error says the provider certainly did not take the page (an answer, or a permanent refusal). */
export function providerDidNotAccept(err: unknown): boolean {
  return (err as Record<string, unknown> | null)?.[NOT_ACCEPTED] === true;
}

/** A short description of a thrown value that never includes its properties (configs, headers). */
export function describeError(err: unknown): string {
  if (typeof err === 'string') return err;
  // Duck-typed: errors from another realm (Node internals under jest's vm) fail `instanceof Error`.
  const { message, name, code } = (err ?? {}) as { message?: unknown; name?: unknown; code?: unknown };
  if (typeof message === 'string' && message) return message;
  return [name, code].filter((v) => typeof v === 'string' && v).join(' ') || 'unknown error';
}
