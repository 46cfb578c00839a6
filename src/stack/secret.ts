import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';

/**
 * The key that signs page links: KLAXON_SECRET, or one generated on first start and kept in the
 * data folder (mode 0600), so links in emails already sent stay valid across restarts.
 */
export function resolveSecret(config: Config): string {
  if (config.secret) return config.secret;
  const file = path.join(config.dataDir, 'secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: generate below
  }
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
