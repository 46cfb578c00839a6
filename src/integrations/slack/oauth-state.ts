/**
 * The `state` of the Slack install (docs/chat.md, "Connecting Slack"): an HMAC-SHA256-signed
 * token, keyed from KLAXON_SECRET, that names the workspace, the member and their session, a
 * random nonce and when it stops being valid. Pure: signing and reading; spending a nonce once
 * is the caller's (src/integrations/slack/connect.ts).
 */
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long an install link works: the person approves in Slack within 10 minutes. */
export const SLACK_STATE_TTL_MS = 10 * 60_000;

/** Longest state accepted back (ours are about 250 characters). */
export const MAX_SLACK_STATE = 1024;

/** Who started the install. */
export interface SlackStateBinding {
  organizationId: string;
  userId: string;
  sessionId: string;
}

/** A state as read back, its signature checked. */
export interface SlackState {
  nonce: string;
  organizationId: string;
  userId: string;
  /** SHA-256 of the session id (the state travels through Slack: it need not show the id). */
  session: string;
  expiresAt: number;
}

/** The signing key: HKDF of KLAXON_SECRET under its own label (no other signature can pass for a state). */
/** The HKDF purpose of the state's key: the dashboard's routes derive it as AdminDeps.deriveKey does. */
export const SLACK_OAUTH_STATE_PURPOSE = 'slack-oauth-state';
export const slackStateKey = (secret: string): Buffer => Buffer.from(hkdfSync('sha256', secret, 'klaxon', SLACK_OAUTH_STATE_PURPOSE, 32));

const sessionDigest = (sessionId: string) => createHash('sha256').update(sessionId).digest('base64url');
const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest('base64url');

/** A fresh state for one install, valid SLACK_STATE_TTL_MS from `now`. */
export function signSlackState(key: Buffer, who: SlackStateBinding, now = Date.now()): string {
  const payload = {
    n: randomBytes(16).toString('base64url'),
    o: who.organizationId,
    u: who.userId,
    s: sessionDigest(who.sessionId),
    x: now + SLACK_STATE_TTL_MS,
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(key, body)}`;
}

/** The state, when its signature is ours, it has not expired and it was issued to this session; else undefined. */
export function readSlackState(key: Buffer, state: string, who: SlackStateBinding, now = Date.now()): SlackState | undefined {
  if (state.length > MAX_SLACK_STATE) return undefined;
  const [body, signature, extra] = state.split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  const expected = Buffer.from(mac(key, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let p: { n?: unknown; o?: unknown; u?: unknown; s?: unknown; x?: unknown };
  try {
    p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof p;
  } catch {
    return undefined;
  }
  if (typeof p.n !== 'string' || typeof p.o !== 'string' || typeof p.u !== 'string' || typeof p.s !== 'string' || typeof p.x !== 'number') return undefined;
  if (p.x <= now) return undefined;
  if (p.o !== who.organizationId || p.u !== who.userId || p.s !== sessionDigest(who.sessionId)) return undefined;
  return { nonce: p.n, organizationId: p.o, userId: p.u, session: p.s, expiresAt: p.x };
}
