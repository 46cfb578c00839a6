import type { Context, Middleware } from 'koa';
import { addressInCidrs, isLoopback, parseAddress, parseCidrs, type CidrList } from '../../src/domain/cidr';
import { HttpError } from '../http/customer-errors';

/** How the API-key surface decides a request came over HTTPS, and from whom (design.md §11). */
export interface TransportPolicy {
  trustedProxies: CidrList;
  /** Plain HTTP from a loopback address is let through (development), or never. */
  allowInsecureHttp: 'loopback' | 'never';
}

export function transportPolicy(trustedProxies: string[], allowInsecureHttp: 'loopback' | 'never'): TransportPolicy {
  const parsed = parseCidrs(trustedProxies);
  if (!parsed.ok) throw new Error(`TRUSTED_PROXIES: ${parsed.message}`);
  return { trustedProxies: parsed.cidrs, allowInsecureHttp };
}

const peerOf = (ctx: Context): string => ctx.req.socket.remoteAddress ?? '';
const fromTrustedProxy = (ctx: Context, policy: TransportPolicy): boolean => addressInCidrs(peerOf(ctx), policy.trustedProxies);

/**
 * The sender's address: the peer, or behind trusted proxies the nearest `X-Forwarded-For` hop that
 * is not one of them (hops a client wrote itself, further left, are never believed).
 */
export function clientAddressOf(ctx: Context, policy: TransportPolicy): string {
  const peer = peerOf(ctx);
  if (!fromTrustedProxy(ctx, policy)) return normalise(peer);
  const hops = ctx.get('X-Forwarded-For').split(',').map((h) => h.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!parseAddress(hops[i])) break;
    if (!addressInCidrs(hops[i], policy.trustedProxies)) return normalise(hops[i]);
  }
  return normalise(peer);
}

const normalise = (address: string) => parseAddress(address)?.toString() ?? address;

/**
 * HTTPS only: a TLS connection, or a trusted proxy saying `X-Forwarded-Proto: https`, or plain
 * HTTP from loopback when the policy allows it; anything else is 403 `https_required`.
 */
export function httpsOnly(policy: TransportPolicy): Middleware {
  return async (ctx, next) => {
    const tls = Boolean((ctx.req.socket as { encrypted?: boolean }).encrypted);
    const proxied = fromTrustedProxy(ctx, policy) && ctx.get('X-Forwarded-Proto').split(',')[0]?.trim().toLowerCase() === 'https';
    const insecureOk = policy.allowInsecureHttp === 'loopback' && isLoopback(peerOf(ctx)) && !ctx.get('X-Forwarded-For');
    if (!tls && !proxied && !insecureOk) throw new HttpError(403, 'this API is served over HTTPS only', 'https_required');
    await next();
  };
}
