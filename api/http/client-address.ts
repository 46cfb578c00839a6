import type { Context, Middleware } from 'koa';
import { addressInCidrs, parseAddress, parseCidrs, type CidrList } from '../../src/domain/cidr';

/** The proxies whose `X-Forwarded-*` headers a listener believes (TRUSTED_PROXIES). */
export interface ProxyTrust {
  trustedProxies: CidrList;
}

/** TRUSTED_PROXIES as configured (addresses and CIDRs), parsed once for the listeners. */
export function proxyTrust(trustedProxies: readonly string[]): ProxyTrust {
  const parsed = parseCidrs(trustedProxies);
  if (!parsed.ok) throw new Error(`TRUSTED_PROXIES: ${parsed.message}`);
  return { trustedProxies: parsed.cidrs };
}

/** The address at the other end of the TCP connection. */
export const peerOf = (ctx: Context): string => ctx.req.socket.remoteAddress ?? '';

/** True when the connection comes from one of the trusted proxies. */
export const fromTrustedProxy = (ctx: Context, trust: ProxyTrust): boolean => addressInCidrs(peerOf(ctx), trust.trustedProxies);

const normalise = (address: string) => parseAddress(address)?.toString() ?? address;

/**
 * The sender's address: the peer, or behind trusted proxies the nearest `X-Forwarded-For` hop that
 * is not one of them (hops a client wrote itself, further left, are never believed). Every
 * listener decides it here, so a per-IP limit and the audit log see the same address.
 */
export function clientAddressOf(ctx: Context, trust: ProxyTrust): string {
  const peer = peerOf(ctx);
  if (!fromTrustedProxy(ctx, trust)) return normalise(peer);
  const hops = ctx
    .get('X-Forwarded-For')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!parseAddress(hops[i])) break;
    if (!addressInCidrs(hops[i], trust.trustedProxies)) return normalise(hops[i]);
  }
  return normalise(peer);
}

/**
 * Sets `ctx.ip` to `clientAddressOf`, before any route reads it: Koa's own `proxy` setting would
 * believe the left-most `X-Forwarded-For` hop from anyone, which a client writes itself.
 */
export function clientAddress(trust: ProxyTrust): Middleware {
  return async (ctx, next) => {
    ctx.request.ip = clientAddressOf(ctx, trust);
    await next();
  };
}
