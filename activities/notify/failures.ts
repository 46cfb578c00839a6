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

/** A plain error: the send activity retries it with backoff (5xx, 429, network, credentials). */
export function retryableFailure(provider: string, detail: string, secrets: ReadonlyArray<string | undefined> = []): Error {
  return new Error(scrub(`${provider}: ${detail}`, secrets));
}

/** A short description of a thrown value that never includes its properties (configs, headers). */
export function describeError(err: unknown): string {
  if (typeof err === 'string') return err;
  // Duck-typed: errors from another realm (Node internals under jest's vm) fail `instanceof Error`.
  const { message, name, code } = (err ?? {}) as { message?: unknown; name?: unknown; code?: unknown };
  if (typeof message === 'string' && message) return message;
  return [name, code].filter((v) => typeof v === 'string' && v).join(' ') || 'unknown error';
}
