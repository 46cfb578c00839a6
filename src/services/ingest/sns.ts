import { verify } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { SNS_CERTIFICATE_LIMITS } from '../../domain/ingest/limits';
import { parseSnsEnvelope, type SnsEnvelope } from '../../domain/ingest/native/sns-envelope';
import { snsSignatureAlgorithm, snsStringToSign } from '../../domain/ingest/native/sns-verification';
import { invalid } from '../errors';
import { OutboundError, outboundClient, type OutboundResponse } from '../outbound';

export interface SnsOptions {
  /** Hosts SNS URLs may point at (certificate and SubscribeURL); AWS's by default. */
  hostPattern: RegExp;
  /** Sends SNS fetches to this origin instead (tests, air-gapped set-ups); the URL is still checked. */
  baseUrlOverride?: string;
  /** Bounds of the certificate cache; SNS_CERTIFICATE_LIMITS unless a test shrinks them. */
  certificates?: { entries?: number; ttlMs?: number };
}

// The longest DNS name: longer hostnames are refused before the operator's pattern runs on them.
const MAX_HOSTNAME = 253;

/** How long one SNS fetch may take. */
const SNS_FETCH_TIMEOUT_MS = 5_000;

/**
 * Verifies SNS deliveries (SignatureVersion 1 and 2) against the certificate at SigningCertURL,
 * and confirms subscriptions by GETting SubscribeURL: both URLs must be HTTPS on an allowed
 * host, so a forged message can make Klaxon fetch nothing else (no SSRF). Fetched through the
 * bounded client (src/services/outbound) as a fixed host: AWS's names, the operator's pattern.
 */
export function createSnsVerifier(opts: SnsOptions) {
  const client = outboundClient({ target: 'fixed', deadlineMs: SNS_FETCH_TIMEOUT_MS, maxBytes: SNS_CERTIFICATE_LIMITS.bytes });
  const certificates = new LRUCache<string, string>({
    max: opts.certificates?.entries ?? SNS_CERTIFICATE_LIMITS.entries,
    ttl: opts.certificates?.ttlMs ?? SNS_CERTIFICATE_LIMITS.ttlMs,
  });

  const allowed = (raw: string | undefined, suffix?: string): URL => {
    let url: URL;
    try {
      url = new URL(raw ?? '');
    } catch {
      throw invalid('SNS message carries an invalid URL');
    }
    const ok =
      url.protocol === 'https:' &&
      !url.username &&
      !url.password &&
      (url.port === '' || url.port === '443') &&
      url.hostname.length <= MAX_HOSTNAME &&
      opts.hostPattern.test(url.hostname) &&
      (!suffix || url.pathname.endsWith(suffix));
    if (!ok) throw invalid(`SNS URL ${url.origin} is not an allowed SNS endpoint`);
    return url;
  };

  /**
   * A GET answered 2xx (no redirect followed), at most the certificate limit of it read: a longer
   * certificate is refused; a subscription's confirmation answer (`truncate`) is not read anyway.
   */
  async function get(url: URL, overflow: 'fail' | 'truncate' = 'fail'): Promise<OutboundResponse> {
    const target = opts.baseUrlOverride ? new URL(url.pathname + url.search, opts.baseUrlOverride) : url;
    let res: OutboundResponse;
    try {
      res = await client.request(target, { overflow });
    } catch (err) {
      if (err instanceof OutboundError && err.kind === 'too_large')
        throw invalid(`SNS signing certificate is larger than ${SNS_CERTIFICATE_LIMITS.bytes / 1024} KiB`);
      throw err;
    }
    if (res.status < 200 || res.status >= 300) throw new Error(`GET ${url.origin}${url.pathname} answered ${res.status}`);
    return res;
  }

  async function certificate(url: URL): Promise<string> {
    const cached = certificates.get(url.href);
    if (cached !== undefined) return cached;
    const pem = (await get(url)).text();
    certificates.set(url.href, pem);
    return pem;
  }

  /** The envelope, once its signature checks out; a clear 400 otherwise. */
  async function verified(body: unknown): Promise<SnsEnvelope> {
    const envelope = parseSnsEnvelope(body);
    if (!envelope) throw invalid('malformed SNS message');
    const algorithm = snsSignatureAlgorithm(envelope.SignatureVersion);
    const signed = snsStringToSign(envelope);
    if (!algorithm || !signed) throw invalid('unsupported or incomplete SNS signature');
    const pem = await certificate(allowed(envelope.SigningCertURL, '.pem'));
    let ok: boolean;
    try {
      ok = verify(algorithm, Buffer.from(signed, 'utf8'), pem, Buffer.from(envelope.Signature, 'base64'));
    } catch {
      throw invalid('SNS signing certificate could not be read');
    }
    if (!ok) throw invalid('SNS message signature does not verify');
    return envelope;
  }

  /** Confirms a subscription (after `verified`); SNS's answer is not read. */
  async function confirm(envelope: SnsEnvelope): Promise<void> {
    await get(allowed(envelope.SubscribeURL), 'truncate');
  }

  return { verified, confirm };
}

export type SnsVerifier = ReturnType<typeof createSnsVerifier>;
