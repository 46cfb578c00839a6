import { createHmac, timingSafeEqual } from 'node:crypto';

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
  const body = b64(JSON.stringify({ n: claim.notificationId, a: claim.action, e: claim.expiresAt }));
  return `${body}.${b64(mac(secret, body))}`;
}

/** The claim of a valid, unexpired token; null for anything forged, altered or expired. */
export function verifyAction(secret: string, token: string, nowSeconds: number): ActionClaim | null {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined) return null;
  const expected = mac(secret, body);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const { n, a, e } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { n: unknown; a: unknown; e: unknown };
    if (typeof n !== 'string' || (a !== 'acknowledge' && a !== 'resolve') || typeof e !== 'number' || e < nowSeconds) return null;
    return { notificationId: n, action: a, expiresAt: e };
  } catch {
    return null;
  }
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
}

/** A token for an incident-scoped action link: the claim, HMAC-signed, expiring. */
export function signIncidentAction(secret: string, claim: IncidentActionClaim): string {
  const body = b64(JSON.stringify({ k: 'i', i: claim.incidentId, a: claim.action, e: claim.expiresAt }));
  return `${body}.${b64(mac(secret, body))}`;
}

/** The claim of a valid, unexpired incident-action token; null for anything forged, altered, expired or of the other kind. */
export function verifyIncidentAction(secret: string, token: string, nowSeconds: number): IncidentActionClaim | null {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined) return null;
  const expected = mac(secret, body);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const { k, i, a, e } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { k: unknown; i: unknown; a: unknown; e: unknown };
    if (k !== 'i' || typeof i !== 'string' || (a !== 'acknowledge' && a !== 'resolve') || typeof e !== 'number' || e < nowSeconds) return null;
    return { incidentId: i, action: a, expiresAt: e };
  } catch {
    return null;
  }
}
