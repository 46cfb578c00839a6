/**
 * Text PostgreSQL can store. Its text columns refuse U+0000 and its jsonb refuses U+0000 and
 * unpaired UTF-16 surrogates (`"\ud800"`), all of which valid JSON may carry: without this an
 * alert holding one was a 500. Form A and Form B refuse such a field (400 naming it); native
 * payloads, which their senders cannot change, get U+FFFD in its place.
 */

// No quantifier: one step per character whatever the input.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

/** True when PostgreSQL stores the string as it is. */
export const isStorableText = (value: string): boolean => !UNSTORABLE.test(value);

/** The string with U+0000 and unpaired surrogates replaced by U+FFFD. */
export const storableText = (value: string): string => (isStorableText(value) ? value : value.replace(UNSTORABLE_ALL, '\uFFFD'));

/** A JSON value with every string, keys included, made storable; the value itself when nothing needed it. */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map(storableJson);
    return items.some((item, i) => item !== value[i]) ? (items as T) : value;
  }
  let changed = false;
  const entries = Object.entries(value).map(([key, v]) => {
    const entry: [string, unknown] = [storableText(key), storableJson(v)];
    changed ||= entry[0] !== key || entry[1] !== v;
    return entry;
  });
  return changed ? (Object.fromEntries(entries) as T) : value;
}

/** The path to the first unstorable string (a key's path ends at that key), or undefined. */
export function unstorablePath(value: unknown): string[] | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : [];
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, v] of Object.entries(value)) {
    if (!isStorableText(key)) return [key];
    const below = unstorablePath(v);
    if (below !== undefined) return [key, ...below];
  }
  return undefined;
}
