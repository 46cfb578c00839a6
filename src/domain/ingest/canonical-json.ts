import { createHash } from 'node:crypto';

/**
 * Canonical JSON for Idempotency-Key payload equality (docs/architecture.md, "Ingestion"): object keys sorted at
 * every depth, no whitespace, so `{"a":1,"b":2}` and `{ "b": 2, "a": 1 }` are the same payload.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

/** SHA-256 (hex) of the canonical form: what an idempotency record stores to compare replays. */
export const payloadFingerprint = (value: unknown): string => createHash('sha256').update(canonicalJson(value)).digest('hex');
