/**
 * Web Push's variables (RFC 8292 VAPID). None are required: without a key pair one is generated
 * into the data folder on first use (src/integrations/web-push/keys.ts) and kept, because every
 * browser subscription is bound to the public key it was made with.
 */
import path from 'node:path';
import { z } from 'zod';
import type { NotifyConfig } from '../../config';
import { contentOrFile, fail, group } from '../../config-env';
import { emailFrom } from '../email/config';
import { integrationSettings } from '../settings';

export const webPushEnv = z.object({
  WEB_PUSH_VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  WEB_PUSH_VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  // The VAPID `sub` claim: how a push service reaches the operator (mailto: or https:).
  WEB_PUSH_SUBJECT: z.string().min(1).optional(),
  // Tests and proxies only: a PEM file of extra certificate authorities the push endpoints may be served under.
  WEB_PUSH_CA_FILE: z.string().min(1).optional(),
});

/** Both halves of the VAPID key pair, base64url (the public one an uncompressed P-256 point). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface WebPushConfig {
  /** The VAPID subject (`mailto:…` or `https://…`). */
  subject: string;
  /** Keys given in the environment; undefined: the data folder's (generated when missing). */
  keys?: VapidKeys;
  /** Where generated keys are kept (mode 0600). */
  keyFile: string;
  /** The app's public URL: what a push opens (`/incidents/{id}`). */
  appUrl: string;
  /** ALLOW_PRIVATE_TARGETS: push endpoints on private addresses allowed (metadata endpoints never). */
  allowPrivate: boolean;
  /** Extra trusted CA certificates (PEM) besides Node's own, from WEB_PUSH_CA_FILE. */
  ca?: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The mailbox of an EMAIL_FROM (`Klaxon <ops@example.com>` or a bare address). */
const mailboxOf = (from: string): string => (/<([^<>\s@]+@[^<>\s]+)>/.exec(from)?.[1] ?? from).trim();

/**
 * The VAPID subject when unset: the public app URL when it is https (push services want a way to
 * reach the sender, and Apple refuses `localhost` contacts), else `mailto:` the EMAIL_FROM address.
 */
export function defaultSubject(appUrl: string, emailFrom: string): string {
  if (appUrl.startsWith('https://')) return appUrl;
  return `mailto:${mailboxOf(emailFrom)}`;
}

/** Generated keys' file, in the data folder (a cluster's own data folder: ProviderModule `prepare`). */
export const VAPID_KEY_FILE = 'vapid-keys.json';

/** Web Push's settings: always configured, its VAPID keys given or generated into the data folder on first use. */
export const webPushSettings: (notify: NotifyConfig) => WebPushConfig = integrationSettings(webPushEnv, webPushConfig);

function webPushConfig(e: z.infer<typeof webPushEnv>, notify: NotifyConfig): WebPushConfig {
  const given = group(e, ['WEB_PUSH_VAPID_PUBLIC_KEY', 'WEB_PUSH_VAPID_PRIVATE_KEY']);
  if (given) {
    if (!BASE64URL.test(given.WEB_PUSH_VAPID_PUBLIC_KEY) || Buffer.from(given.WEB_PUSH_VAPID_PUBLIC_KEY, 'base64url').length !== 65)
      fail('WEB_PUSH_VAPID_PUBLIC_KEY', 'must be a base64url P-256 public key (65 bytes), as `npx web-push generate-vapid-keys` prints');
    if (!BASE64URL.test(given.WEB_PUSH_VAPID_PRIVATE_KEY) || Buffer.from(given.WEB_PUSH_VAPID_PRIVATE_KEY, 'base64url').length !== 32)
      fail('WEB_PUSH_VAPID_PRIVATE_KEY', 'must be a base64url P-256 private key (32 bytes), as `npx web-push generate-vapid-keys` prints');
  }
  const subject = e.WEB_PUSH_SUBJECT ?? defaultSubject(notify.appUrl, emailFrom(notify));
  if (!/^(mailto:|https:\/\/)\S+$/.test(subject)) fail('WEB_PUSH_SUBJECT', 'must be a mailto: or https:// URL');
  return {
    subject,
    keys: given && { publicKey: given.WEB_PUSH_VAPID_PUBLIC_KEY, privateKey: given.WEB_PUSH_VAPID_PRIVATE_KEY },
    keyFile: path.join(notify.dataDir, VAPID_KEY_FILE),
    appUrl: notify.appUrl,
    allowPrivate: notify.allowPrivateTargets,
    ca: e.WEB_PUSH_CA_FILE === undefined ? undefined : contentOrFile('WEB_PUSH_CA_FILE', e.WEB_PUSH_CA_FILE, (v) => v.includes('-----BEGIN')),
  };
}
