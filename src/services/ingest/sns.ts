import { verify } from 'node:crypto';
import { parseSnsEnvelope, type SnsEnvelope } from '../../domain/ingest/native/sns-envelope';
import { snsSignatureAlgorithm, snsStringToSign } from '../../domain/ingest/native/sns-verification';
import { invalid } from '../errors';

export interface SnsOptions {
  /** Hosts SNS URLs may point at (certificate and SubscribeURL); AWS's by default. */
  hostPattern: RegExp;
  /** Sends SNS fetches to this origin instead (tests, air-gapped set-ups); the URL is still checked. */
  baseUrlOverride?: string;
}

/**
 * Verifies SNS deliveries (SignatureVersion 1 and 2) against the certificate at SigningCertURL,
 * and confirms subscriptions by GETting SubscribeURL: both URLs must be HTTPS on an allowed
 * host, so a forged message can make Klaxon fetch nothing else (no SSRF).
 */
export function createSnsVerifier(opts: SnsOptions) {
  const certificates = new Map<string, string>();

  const allowed = (raw: string | undefined, suffix?: string): URL => {
    let url: URL;
    try {
      url = new URL(raw ?? '');
    } catch {
      throw invalid('SNS message carries an invalid URL');
    }
    const ok = url.protocol === 'https:' && !url.username && !url.password && (url.port === '' || url.port === '443') && opts.hostPattern.test(url.hostname) && (!suffix || url.pathname.endsWith(suffix));
    if (!ok) throw invalid(`SNS URL ${url.origin} is not an allowed SNS endpoint`);
    return url;
  };

  async function get(url: URL): Promise<string> {
    const target = opts.baseUrlOverride ? new URL(url.pathname + url.search, opts.baseUrlOverride) : url;
    const res = await fetch(target, { signal: AbortSignal.timeout(5000), redirect: 'error' });
    if (!res.ok) throw new Error(`GET ${url.origin}${url.pathname} answered ${res.status}`);
    return res.text();
  }

  /** The envelope, once its signature checks out; a clear 400 otherwise. */
  async function verified(body: unknown): Promise<SnsEnvelope> {
    const envelope = parseSnsEnvelope(body);
    if (!envelope) throw invalid('malformed SNS message');
    const algorithm = snsSignatureAlgorithm(envelope.SignatureVersion);
    const signed = snsStringToSign(envelope);
    if (!algorithm || !signed) throw invalid('unsupported or incomplete SNS signature');
    const certUrl = allowed(envelope.SigningCertURL, '.pem');
    let pem = certificates.get(certUrl.href);
    if (!pem) {
      pem = await get(certUrl);
      certificates.set(certUrl.href, pem);
    }
    const ok = verify(algorithm, Buffer.from(signed, 'utf8'), pem, Buffer.from(envelope.Signature, 'base64'));
    if (!ok) throw invalid('SNS message signature does not verify');
    return envelope;
  }

  /** Confirms a subscription (after `verified`). */
  async function confirm(envelope: SnsEnvelope): Promise<void> {
    await get(allowed(envelope.SubscribeURL));
  }

  return { verified, confirm };
}

export type SnsVerifier = ReturnType<typeof createSnsVerifier>;
