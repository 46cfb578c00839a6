import type { Middleware } from 'koa';
import { isLoopback } from '../../src/domain/cidr';
import { fromTrustedProxy, peerOf, proxyTrust, type ProxyTrust } from '../http/client-address';
import { HttpError } from '../http/customer-errors';

/** How the API-key surface decides a request came over HTTPS, and from whom (docs/architecture.md, "Inbound webhooks"). */
export interface TransportPolicy extends ProxyTrust {
  /** Plain HTTP from a loopback address is let through (development), or never. */
  allowInsecureHttp: 'loopback' | 'never';
}

export function transportPolicy(trustedProxies: readonly string[], allowInsecureHttp: 'loopback' | 'never'): TransportPolicy {
  return { ...proxyTrust(trustedProxies), allowInsecureHttp };
}

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
