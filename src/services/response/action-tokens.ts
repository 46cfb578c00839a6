import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a signed link or push action may do. */
export type PageAction = 'acknowledge' | 'resolve';

export interface ActionClaim {
  notificationId: string;
  action: PageAction;
  /** Unix seconds after which the token is refused. */
  expiresAt: number;
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const mac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest();

/** A token for an email link or a push action: the claim, HMAC-signed, expiring. */
export function signAction(secret: string, claim: ActionClaim): string {
  return signClaim(secret, { n: claim.notificationId, a: claim.action, e: claim.expiresAt });
}

/** The claim of a valid, unexpired token; null for anything forged, altered or expired. */
export function verifyAction(secret: string, token: string, nowSeconds: number): ActionClaim | null {
  const { n, a, e } = openClaim(secret, token) ?? {};
  if (typeof n !== 'string' || !isAction(a) || typeof e !== 'number' || e < nowSeconds) return null;
  return { notificationId: n, action: a, expiresAt: e };
}

/**
 * An action on an incident itself, for links posted where no page exists (a Microsoft Teams
 * card): the incident, the action, the expiry. Its body carries `k: "i"`, so neither kind of
 * token passes for the other.
 */
export interface IncidentActionClaim {
  incidentId: string;
  action: PageAction;
  /** Unix seconds after which the token is refused. */
  expiresAt: number;
  /**
   * Makes the token one-use (chat messages' links and actions): the first use records it
   * (src/services/response/action-nonces.ts), a second is refused. Tokens signed before it existed have none.
   */
  nonce?: string;
  /** The chat provider whose message carried it (its registry key): the timeline names it. */
  provider?: string;
}

/** A token for an incident-scoped action link: the claim, HMAC-signed, expiring. */
export function signIncidentAction(secret: string, claim: IncidentActionClaim): string {
  return signClaim(secret, {
    k: 'i',
    i: claim.incidentId,
    a: claim.action,
    e: claim.expiresAt,
    ...(claim.nonce ? { u: claim.nonce } : {}),
    ...(claim.provider ? { p: claim.provider } : {}),
  });
}

/** A one-use incident-action token for a chat message (a link, a button's context): a fresh random nonce each. */
export function signChatAction(secret: string, claim: Omit<IncidentActionClaim, 'nonce'>): string {
  return signIncidentAction(secret, { ...claim, nonce: randomBytes(12).toString('base64url') });
}

/** The claim of a valid, unexpired incident-action token; null for anything forged, altered, expired or of the other kind. */
export function verifyIncidentAction(secret: string, token: string, nowSeconds: number): IncidentActionClaim | null {
  const { k, i, a, e, u, p } = openClaim(secret, token) ?? {};
  if (k !== 'i' || typeof i !== 'string' || !isAction(a) || typeof e !== 'number' || e < nowSeconds) return null;
  if (u !== undefined && (typeof u !== 'string' || u.length === 0 || u.length > 64)) return null;
  if (p !== undefined && (typeof p !== 'string' || p.length > 64)) return null;
  return { incidentId: i, action: a, expiresAt: e, ...(u ? { nonce: u } : {}), ...(p ? { provider: p } : {}) };
}

/** An HMAC-signed token of a JSON claim: `base64url(claim).base64url(mac)`. */
function signClaim(secret: string, claim: Record<string, unknown>): string {
  const body = b64(JSON.stringify(claim));
  return `${body}.${b64(mac(secret, body))}`;
}

/** A token's claim when its signature holds (compared in constant time), else null; expiry and shape are the caller's. */
function openClaim(secret: string, token: string): Record<string, unknown> | null {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined) return null;
  const expected = mac(secret, body);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claim: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return typeof claim === 'object' && claim !== null ? (claim as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const isAction = (a: unknown): a is PageAction => a === 'acknowledge' || a === 'resolve';

/**
 * A drill page's acknowledge link or push action (docs/drills.md): the drill result and the
 * expiry. Its body carries `k: "d"`, so it never passes for a page's or an incident's token.
 */
export interface DrillAckClaim {
  drillResultId: string;
  expiresAt: number;
}

export function signDrillAck(secret: string, claim: DrillAckClaim): string {
  return signClaim(secret, { k: 'd', d: claim.drillResultId, e: claim.expiresAt });
}

/** The claim of a valid, unexpired drill token; null for anything forged, altered, expired or of another kind. */
export function verifyDrillAck(secret: string, token: string, nowSeconds: number): DrillAckClaim | null {
  const { k, d, e } = openClaim(secret, token) ?? {};
  if (k !== 'd' || typeof d !== 'string' || typeof e !== 'number' || e < nowSeconds) return null;
  return { drillResultId: d, expiresAt: e };
}
