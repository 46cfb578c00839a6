/**
 * JSON text to a value, with the nesting checked first. JSON.parse itself is linear but slow on
 * deep nesting: 512 KiB of `[[[[…` held the event loop for a quarter of a second and more, and
 * the value would then overflow the stack of whatever walked it (JSON.stringify, jsonb). One pass
 * over the characters, strings skipped, refuses it before JSON.parse allocates anything.
 */
import { INGEST_LIMITS } from './limits';

export type JsonTextResult = { ok: true; value: unknown } | { ok: false; message: string };

const [QUOTE, BACKSLASH, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = ['"', '\\', '{', '}', '[', ']'].map((c) => c.charCodeAt(0));

/** True when objects and arrays nest deeper than `max` anywhere in the text (strings are skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * Parses a request body (or an SNS message). `objectOrArray` refuses any other JSON value, as the
 * ingestion URL always has; the receiver lets Form B's own check name what is wrong.
 */
export function parseJsonText(text: string, opts: { objectOrArray?: boolean; maxDepth?: number } = {}): JsonTextResult {
  const maxDepth = opts.maxDepth ?? INGEST_LIMITS.jsonDepth;
  if (nestsDeeperThan(text, maxDepth)) return { ok: false, message: `request body nests objects and arrays more than ${maxDepth} levels deep` };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { ok: false, message: 'request body is not valid JSON' };
  }
  if (opts.objectOrArray && (value === null || typeof value !== 'object')) return { ok: false, message: 'request body is not valid JSON' };
  return { ok: true, value };
}
