import { createECDH, createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { close, listen, waitUntil } from '../../testing/http-util';
import { ENDLESS_SAFETY, streamEndlessly, type EndlessAnswer, type EndlessPace, type EndlessSafety } from '../../testing/endless-answer';
import type { TestCert } from '../../testing/tls-cert';

// `http_ece` is web-push's own dependency (RFC 8188): the fake decrypts with it as a browser would.
const ece = require('http_ece') as { decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer };

/** A browser's subscription, made by the test: the JSON Klaxon stores, and the private half the fake decrypts with. */
export interface FakeSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** `PushSubscription.toJSON()` as a browser gives it. */
  toJSON(): { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

/** What the VAPID Authorization header said, checked. */
export interface VapidCheck {
  /** Signature verified with `k`, aud the endpoint's origin, exp within 24 h, sub present. */
  valid: boolean;
  /** Why not, when not. */
  problem: string | null;
  /** The `k` parameter: the application server's public key (base64url). */
  publicKey: string | null;
  claims: { aud?: string; exp?: number; sub?: string } | null;
}

/** One push that reached the fake. */
export interface WebPushRequest {
  subscriptionId: string;
  /** Urgency, TTL, Topic, Content-Encoding as sent. */
  headers: { urgency?: string; ttl?: string; topic?: string; contentEncoding?: string };
  vapid: VapidCheck;
  /** The decrypted payload, parsed; null when it could not be decrypted or parsed. */
  payload: any;
  decryptError: string | null;
  status: number;
  at: number;
}

function readRaw(req: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Checks `vapid t=<jwt>, k=<key>` (RFC 8292 §3): ES256 over header.payload with k, aud, exp, sub. */
export function checkVapid(header: string | undefined, origin: string, now = Date.now()): VapidCheck {
  const fail = (problem: string, publicKey: string | null = null, claims: VapidCheck['claims'] = null): VapidCheck => ({
    valid: false,
    problem,
    publicKey,
    claims,
  });
  const t = /(?:^|[\s,])t=([\w-]+\.[\w-]+\.[\w-]+)/.exec(header ?? '')?.[1];
  const k = /(?:^|[\s,])k=([\w-]+)/.exec(header ?? '')?.[1] ?? null;
  if (!/^vapid /i.test(header ?? '') || !t || !k) return fail('no `vapid t=…, k=…` Authorization', k);
  const [h, p, sig] = t.split('.');
  let claims: VapidCheck['claims'];
  try {
    const head = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    if (head.alg !== 'ES256') return fail(`alg ${head.alg}`, k, claims);
  } catch {
    return fail('JWT is not JSON', k);
  }
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return fail('k is not an uncompressed P-256 point', k, claims);
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  if (!verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'))) return fail('bad signature', k, claims);
  if (claims?.aud !== origin) return fail(`aud ${claims?.aud} is not ${origin}`, k, claims);
  const exp = claims.exp;
  if (typeof exp !== 'number' || exp * 1000 <= now || exp * 1000 > now + 24 * 3600_000) return fail('exp missing, past, or more than 24 h ahead', k, claims);
  if (typeof claims.sub !== 'string' || !claims.sub) return fail('sub missing', k, claims);
  return { valid: true, problem: null, publicKey: k, claims };
}

/**
 * A browser push service at the wire (RFC 8030) over HTTPS with a test-time certificate: the test
 * makes subscriptions (a P-256 key pair and 16 auth bytes each, as a browser does), the fake checks
 * each push's VAPID JWT, decrypts its aes128gcm body with the subscription's private key, records
 * Urgency, TTL and Topic, and answers 201, or the status it was told to (410, 404, 500, …).
 */
export async function startWebPushFake(opts: { cert: TestCert }) {
  const requests: WebPushRequest[] = [];
  const subscriptions = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();
  const failures = new Map<string, number>();
  const endless = new Map<string, { status: number; pace: EndlessPace; safety: EndlessSafety }>();
  const endlessAnswers: Array<EndlessAnswer & { subscriptionId: string }> = [];
  let origin = '';

  const server = https.createServer({ key: opts.cert.key, cert: opts.cert.cert }, async (req, res) => {
    const body = await readRaw(req);
    // Arrival: the whole request read, before the fake's own checks and decryption.
    const at = Date.now();
    const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    const sub = id ? subscriptions.get(id) : undefined;
    if (req.method !== 'POST' || !id || !sub) {
      res.writeHead(404).end();
      return;
    }
    const vapid = checkVapid(req.headers.authorization, origin);
    let payload: unknown = null;
    let decryptError: string | null = null;
    try {
      payload = JSON.parse(ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth.toString('base64url') }).toString('utf8'));
    } catch (err) {
      decryptError = (err as Error).message;
    }
    const forever = vapid.valid ? endless.get(id) : undefined;
    const status = !vapid.valid ? 403 : (forever?.status ?? failures.get(id) ?? 201);
    const pick = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
    requests.push({
      subscriptionId: id,
      headers: { urgency: pick('urgency'), ttl: pick('ttl'), topic: pick('topic'), contentEncoding: pick('content-encoding') },
      vapid,
      payload,
      decryptError,
      status,
      at,
    });
    if (forever) {
      // The same object the stream updates (when it closes, how much it sent), not a copy.
      endlessAnswers.push(Object.assign(streamEndlessly(res, forever.status, forever.pace, forever.safety), { subscriptionId: id }));
      return;
    }
    res.writeHead(status, status === 201 ? { Location: `${origin}/message/${randomUUID()}` } : {}).end();
  });
  const port = await listen(server);
  origin = `https://127.0.0.1:${port}`;

  const accepted = () => requests.filter((r) => r.status === 201);
  return {
    port,
    origin,
    requests,
    pushes: accepted,
    /** A new browser subscription on this service. */
    subscribe(): FakeSubscription {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      subscriptions.set(id, { ecdh, auth });
      const endpoint = `${origin}/push/${id}`;
      const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') };
      return { id, endpoint, keys, toJSON: () => ({ endpoint, expirationTime: null, keys }) };
    },
    /** Answers pushes to this subscription with `status` (410 gone, 404, 429, 500, 400 …). */
    failWith: (subscriptionId: string, status: number) => failures.set(subscriptionId, status),
    clearFailure: (subscriptionId: string) => failures.delete(subscriptionId),
    /** Answers pushes to this subscription with `status` and a body that never ends (endless-answer.ts). */
    answerEndlessly: (subscriptionId: string, status: number, pace: EndlessPace, safety = ENDLESS_SAFETY) =>
      endless.set(subscriptionId, { status, pace, safety }),
    /** The endless answers given so far, with when each was opened and closed, and by whom. */
    endlessAnswers,
    waitFor: (match: (r: WebPushRequest) => boolean = () => true, timeoutMs?: number) => waitUntil('a web push', () => requests.find(match), timeoutMs),
    close: () => close(server as never),
  };
}

export type WebPushFake = Awaited<ReturnType<typeof startWebPushFake>>;
