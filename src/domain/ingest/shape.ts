/** Small readers for untrusted, already-parsed payloads: every field may be missing or mistyped. */
import { INGEST_LIMITS } from './limits';
import { storableText } from './storable-text';

/** A plain JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object, or undefined. */
export function asObject(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

/** True when `body` is an object holding every key (values may be null). */
export function hasKeys(body: unknown, keys: readonly string[]): body is JsonObject {
  return isObject(body) && keys.every((k) => k in body);
}

/**
 * A non-empty string from a string or finite number (ids arrive as both), else undefined. Cut to
 * INGEST_LIMITS.nativeField before anything else looks at it, and storable (storable-text.ts).
 */
export function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = storableText(value.slice(0, INGEST_LIMITS.nativeField)).trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Reads a nested field: `at(body, 'data', 'event', 'title')`. */
export function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** The non-empty string entries of an object (labels, annotations), the first INGEST_LIMITS.nativeEntries of them. */
export function stringEntries(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(asObject(value) ?? {}).slice(0, INGEST_LIMITS.nativeEntries)) {
    const s = text((value as JsonObject)[key]);
    if (s !== undefined) out[key] = s;
  }
  return out;
}

/** The first INGEST_LIMITS.nativeEntries items of an array; undefined when it is not one. */
export const firstEntries = (value: unknown): unknown[] | undefined => (Array.isArray(value) ? value.slice(0, INGEST_LIMITS.nativeEntries) : undefined);

/** Joins the present parts with a blank line; undefined when none is present. */
export function joinText(...parts: Array<string | undefined>): string | undefined {
  const present = parts.filter((p): p is string => p !== undefined && p !== '');
  return present.length > 0 ? present.join('\n\n') : undefined;
}

/** Drops undefined values so events compare and serialise cleanly. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The record without its undefined entries, or undefined when nothing is left. */
export function presentEntries(record: Record<string, string | undefined>): Record<string, string> | undefined {
  const kept = Object.entries(record).filter((e): e is [string, string] => e[1] !== undefined);
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}
