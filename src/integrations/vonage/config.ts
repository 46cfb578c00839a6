/**
 * Vonage's variables (docs/integrations/vonage.md): key, secret, application id, private key and
 * sender together, or none (then SMS and voice go to Twilio, or the dev inbox). The signature
 * secret checks Vonage's signed callbacks; the API URL points the SDK at another host (the wire
 * fake, testing/wire-fake.ts).
 */
import { createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import type { NotifyConfig } from '../../config';
import { contentOrFile, fail, group, trimSlash } from '../../config-env';
import { integrationSettings } from '../settings';

/** A number as Vonage takes it: E.164 (the `+` is dropped when sent). */
const E164 = /^\+?[1-9]\d{6,14}$/;
/** An alphanumeric sender id: up to 11 letters, digits and spaces (carriers' limit). */
const SENDER_ID = /^[A-Za-z0-9 ]{1,11}$/;

export const vonageEnv = z.object({
  VONAGE_API_KEY: z
    .string()
    .regex(/^[A-Za-z0-9]{4,32}$/, 'must be a Vonage API key: letters and digits, from the dashboard')
    .optional(),
  VONAGE_API_SECRET: z.string().min(1).optional(),
  VONAGE_APPLICATION_ID: z.guid({ error: 'must be a Vonage application id (a UUID)' }).optional(),
  VONAGE_PRIVATE_KEY: z.string().min(1).optional(),
  VONAGE_FROM: z
    .string()
    .refine((v) => E164.test(v) || (SENDER_ID.test(v) && /[A-Za-z]/.test(v)), 'must be an E.164 number like +15551234567 or an alphanumeric sender id')
    .optional(),
  VONAGE_SIGNATURE_SECRET: z.string().min(16, 'must be the account signature secret (Dashboard → Settings)').optional(),
  VONAGE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
});

export interface VonageConfig {
  apiKey: string;
  apiSecret: string;
  applicationId: string;
  /** The application's private key, PEM (read from its file when VONAGE_PRIVATE_KEY is a path). */
  privateKey: string;
  /** VONAGE_FROM as Vonage takes it: the number's digits without `+`, or the sender id. */
  from: string;
  /** True when VONAGE_FROM is a number: only a number can place a call. */
  fromIsNumber: boolean;
  /** VONAGE_SIGNATURE_SECRET: without it every callback is refused (nothing can prove it is Vonage's). */
  signatureSecret?: string;
  /** VONAGE_API_URL, no trailing slash: both the API and the REST hosts (the test fake). */
  apiUrl?: string;
}

/** Vonage's settings once its five variables are set; undefined: Vonage sends nothing. */
export const vonageSettings: (notify: NotifyConfig) => VonageConfig | undefined = integrationSettings(vonageEnv, vonageConfig);

function vonageConfig(e: z.infer<typeof vonageEnv>): VonageConfig | undefined {
  const vonage = group(e, ['VONAGE_API_KEY', 'VONAGE_API_SECRET', 'VONAGE_APPLICATION_ID', 'VONAGE_PRIVATE_KEY', 'VONAGE_FROM']);
  if (!vonage) return undefined;
  const fromIsNumber = E164.test(vonage.VONAGE_FROM);
  return {
    apiKey: vonage.VONAGE_API_KEY,
    apiSecret: vonage.VONAGE_API_SECRET,
    applicationId: vonage.VONAGE_APPLICATION_ID,
    privateKey: privateKeyPem(vonage.VONAGE_PRIVATE_KEY),
    from: fromIsNumber ? vonage.VONAGE_FROM.replace('+', '') : vonage.VONAGE_FROM,
    fromIsNumber,
    signatureSecret: e.VONAGE_SIGNATURE_SECRET,
    apiUrl: e.VONAGE_API_URL && trimSlash(e.VONAGE_API_URL),
  };
}

/** The PEM text, given inline (with real or `\n`-escaped newlines, as env files hold it) or as a file's path; checked to be a private key. */
function privateKeyPem(value: string): string {
  const pem = contentOrFile('VONAGE_PRIVATE_KEY', value, (v) => v.includes('-----BEGIN')).replaceAll('\\n', '\n');
  try {
    createPrivateKey(pem);
  } catch {
    fail('VONAGE_PRIVATE_KEY', 'must be a PEM private key (the application’s private.key), inline or the path of its file');
  }
  return pem;
}
