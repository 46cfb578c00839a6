import { randomUUID, verify } from 'node:crypto';
import http2 from 'node:http2';
import { readBody, listen, waitUntil } from '../../testing/http-util';
import type { TestCert } from '../../testing/tls-cert';

/** One push request that reached the fake. */
export interface ApnsRequest {
  token: string;
  /** apns-topic, apns-push-type, apns-priority, apns-expiration, apns-id as sent. */
  headers: Record<string, string | undefined>;
  /** The JSON payload: `aps` (alert, category, sound) and our custom data. */
  payload: any;
  /** True when the bearer JWT was ES256-signed by the test key with the expected kid and team. */
  authorized: boolean;
  status: number;
  apnsId?: string;
  /** Arrival time, ms since the epoch. */
  at: number;
}

const b64json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

/** Checks an APNs provider token: `bearer <jwt>`, ES256 over header.payload, our kid and team. */
function validProviderToken(header: string | undefined, opts: { publicKey: string; keyId: string; teamId: string }): boolean {
  const m = /^bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/i.exec(header ?? '');
  if (!m) return false;
  try {
    const head = b64json(m[1]);
    const claims = b64json(m[2]);
    if (head.alg !== 'ES256' || head.kid !== opts.keyId || claims.iss !== opts.teamId || typeof claims.iat !== 'number') return false;
    // JWS ES256 signatures are raw r||s, not DER.
    return verify('sha256', Buffer.from(`${m[1]}.${m[2]}`), { key: opts.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(m[3], 'base64url'));
  } catch {
    return false;
  }
}

/**
 * APNs at the wire: HTTP/2 over TLS (a test-time self-signed certificate), `POST /3/device/{token}`
 * with a provider-token JWT; 200 with apns-id, or Apple's JSON reasons for chosen tokens.
 */
export async function startApnsFake(opts: { cert: TestCert; publicKey: string; keyId: string; teamId: string; topic: string }) {
  const requests: ApnsRequest[] = [];
  const failures = new Map<string, { status: number; reason: string }>();
  const sessions = new Set<http2.ServerHttp2Session>();

  const server = http2.createSecureServer({ key: opts.cert.key, cert: opts.cert.cert }, async (req, res) => {
    const text = await readBody(req);
    const token = (/^\/3\/device\/([^/?]+)$/.exec(req.url) ?? [])[1];
    const authorized = validProviderToken(req.headers.authorization, opts);
    const pick = (h: string) => (typeof req.headers[h] === 'string' ? (req.headers[h] as string) : undefined);
    const headers = Object.fromEntries(['apns-topic', 'apns-push-type', 'apns-priority', 'apns-expiration', 'apns-id'].map((h) => [h, pick(h)]));
    const apnsId = headers['apns-id'] ?? randomUUID();
    const answer = (status: number, reason?: string) => {
      let payload: unknown = null;
      try {
        payload = JSON.parse(text);
      } catch {
        // recorded as null: the assertion on payload will say so
      }
      if (token) requests.push({ token, headers, payload, authorized, status, apnsId: status === 200 ? apnsId : undefined, at: Date.now() });
      res.writeHead(status, reason ? { 'apns-id': apnsId, 'content-type': 'application/json' } : { 'apns-id': apnsId });
      if (!reason) return void res.end();
      res.end(JSON.stringify(status === 410 ? { reason, timestamp: Date.now() } : { reason }));
    };
    if (req.method !== 'POST' || !token) return answer(404, 'BadPath');
    if (!req.headers.authorization) return answer(403, 'MissingProviderToken');
    if (!authorized) return answer(403, 'InvalidProviderToken');
    if (headers['apns-topic'] !== opts.topic) return answer(400, 'TopicDisallowed');
    const failure = failures.get(token);
    if (failure) return answer(failure.status, failure.reason);
    answer(200);
  });
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  const port = await listen(server);

  const accepted = () => requests.filter((r) => r.status === 200);
  return {
    host: '127.0.0.1',
    port,
    requests,
    pushes: accepted,
    waitFor: (match: (r: ApnsRequest) => boolean = () => true, timeoutMs?: number) => waitUntil('an APNs push', () => accepted().find(match), timeoutMs),
    /** Makes pushes to `token` fail: 410 Unregistered by default, or e.g. 400 BadDeviceToken, 500 InternalServerError. */
    failToken: (token: string, failure: { status: number; reason: string } = { status: 410, reason: 'Unregistered' }) => failures.set(token, failure),
    clearFailure: (token: string) => failures.delete(token),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sessions) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export type ApnsFake = Awaited<ReturnType<typeof startApnsFake>>;
