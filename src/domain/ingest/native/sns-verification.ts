/**
 * Pure inputs for verifying an SNS message: the canonical string AWS signed, the digest
 * it used, and whether a URL really points at SNS. Fetching the certificate and checking
 * the RSA signature is the caller's job (it needs I/O and crypto).
 */
import type { SnsEnvelope } from './sns-envelope';

// AWS's documented field order; Subject is signed only when the message has one.
const NOTIFICATION_FIELDS = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const;
const CONFIRMATION_FIELDS = ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const;

/** The canonical string-to-sign (`Key\nValue\n` per signed field); undefined when a field is missing. */
export function snsStringToSign(envelope: SnsEnvelope): string | undefined {
  const fields = envelope.Type === 'Notification' ? NOTIFICATION_FIELDS : CONFIRMATION_FIELDS;
  let signed = '';
  for (const key of fields) {
    const value = envelope[key];
    if (value === undefined) {
      if (key === 'Subject') continue;
      return undefined;
    }
    signed += `${key}\n${value}\n`;
  }
  return signed;
}

/** The Node `crypto.createVerify` algorithm for a SignatureVersion (1 → SHA1, 2 → SHA256). */
export function snsSignatureAlgorithm(signatureVersion: string): 'RSA-SHA1' | 'RSA-SHA256' | undefined {
  if (signatureVersion === '1') return 'RSA-SHA1';
  if (signatureVersion === '2') return 'RSA-SHA256';
  return undefined;
}

const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/** True for an `https://sns.<region>.amazonaws.com/` URL on the default port (no SSRF). */
export function isSnsUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === 'https:' && parsed.port === '' && parsed.username === '' && parsed.password === '' && SNS_HOST.test(parsed.hostname);
}

/** True for an SNS URL serving a `.pem` certificate, the only place to fetch a signing cert from. */
export function isSnsSigningCertUrl(url: string): boolean {
  return isSnsUrl(url) && new URL(url).pathname.endsWith('.pem');
}
