/**
 * Helpers for reading the environment, shared by src/config.ts and the providers' config schemas
 * (src/integrations/<name>/config.ts). Errors name the variable and never echo its value: most of
 * these are secrets.
 */
import { readFileSync } from 'node:fs';

/** Throws the same readable error as the schema; never echoes a value (most of these are secrets). */
export function fail(variable: string, problem: string): never {
  throw new Error(`invalid configuration: ${variable}: ${problem}`);
}

/**
 * A provider is configured when any of its variables is set; then all of its required ones must
 * be, so a typo fails at startup instead of silently paging into the dev inbox.
 */
export function group<E, K extends keyof E & string>(e: E, required: K[]): { [P in K]-?: NonNullable<E[P]> } | undefined {
  const set = required.filter((k) => e[k] !== undefined);
  if (set.length === 0) return undefined;
  const missing = required.filter((k) => e[k] === undefined);
  if (missing.length) fail(missing[0], `required when ${set[0]} is set`);
  return e as unknown as { [P in K]-?: NonNullable<E[P]> };
}

/** PEM or JSON content given inline, or else the path of a file holding it. */
export function contentOrFile(variable: string, value: string, looksInline: (v: string) => boolean): string {
  if (looksInline(value)) return value;
  try {
    return readFileSync(value, 'utf8');
  } catch {
    return fail(variable, 'is neither inline content nor a readable file');
  }
}

// A loop, not /\/+$/: that regex restarts at every slash of a run (quadratic).
export const trimSlash = (url: string) => {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
};
