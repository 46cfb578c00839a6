/** openid-client is ESM-only: loaded with a dynamic import (real in Node, turned into require by jest's transform). */
export type OpenId = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });
export type OpenIdConfiguration = import('openid-client', { with: { 'resolution-mode': 'import' } }).Configuration;

let loaded: Promise<OpenId> | undefined;

/** The openid-client module, imported once. */
export const openId = (): Promise<OpenId> => (loaded ??= import('openid-client'));
