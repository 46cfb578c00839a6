/**
 * Turns a raw request body (or query string) into the value detectors read. SNS posts JSON
 * as text/plain and UptimeRobot may post a form or a query string, so the content type is
 * not trusted: JSON is tried first, then `a=1&b=2` form encoding.
 */
import type { JsonObject } from './shape';

/** The parsed body: JSON value, form fields as an object, or the raw text when neither. */
export function readBody(raw: string): unknown {
  const trimmed = raw.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      return raw;
    }
  }
  return readForm(trimmed) ?? raw;
}

/** Form or query-string fields (a leading `?` allowed); undefined when it is not one. */
export function readForm(raw: string): JsonObject | undefined {
  const query = raw.startsWith('?') ? raw.slice(1) : raw;
  // Free text is not a form: every pair must be `name=value` with a name.
  if (query === '' || !query.split('&').every((pair) => /^[^=&]+=/.test(pair))) return undefined;
  const fields: JsonObject = {};
  for (const [key, value] of new URLSearchParams(query)) fields[key] = value;
  return fields;
}
