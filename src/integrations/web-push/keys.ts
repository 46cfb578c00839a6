/**
 * The VAPID key pair (RFC 8292): WEB_PUSH_VAPID_* when set, else the one kept in the data folder,
 * generated on first use (mode 0600, like the link secret of src/stack/secret.ts). A new key
 * would orphan every browser subscription, so an existing file is never replaced; two processes
 * starting together agree: the file appears whole and once, and the later one reads it.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { VapidKeys, WebPushConfig } from './config';

function readKeys(file: string): VapidKeys | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = JSON.parse(text) as Partial<Record<'public_key' | 'private_key', unknown>>;
  if (typeof parsed.public_key !== 'string' || typeof parsed.private_key !== 'string') {
    throw new Error(`${file} does not hold a VAPID key pair: restore it, or remove it to generate a new one (existing browser subscriptions stop working)`);
  }
  return { publicKey: parsed.public_key, privateKey: parsed.private_key };
}

/** The key pair Web Push signs with; generated into the data folder the first time none exists. */
export function vapidKeys(config: Pick<WebPushConfig, 'keys' | 'keyFile'>): VapidKeys {
  if (config.keys) return config.keys;
  const existing = readKeys(config.keyFile);
  if (existing) return existing;
  mkdirSync(path.dirname(config.keyFile), { recursive: true });
  const generated = webpush.generateVAPIDKeys();
  // Written whole under a temporary name, then linked into place: link fails if the file exists,
  // so a reader never sees half a file and a second writer never replaces the first's keys.
  const temporary = `${config.keyFile}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, JSON.stringify({ public_key: generated.publicKey, private_key: generated.privateKey }) + '\n', { mode: 0o600 });
  try {
    linkSync(temporary, config.keyFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another process wrote it first: theirs is the key.
    return readKeys(config.keyFile)!;
  } finally {
    rmSync(temporary, { force: true });
  }
  return generated;
}
