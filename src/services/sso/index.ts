/** Single sign-on (docs/sso.md): settings, the sign-in methods behind one seam, and the sign-in use cases. */
import type { SsoConfig, TargetsConfig } from '../../config';
import { outboundFetch } from '../outbound';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { oidcSignInMethod } from './oidc';
import { samlSignInMethod } from './saml-method';
import type { SignInMethods } from './sign-in-methods';

export * from './connections';
export { verifySsoDomain, workspaceForEmail, type SsoDomainView } from './domains';
export { dnsTxtLookup, type TxtLookup } from './domain-proof';
export * from './sign-in';
export type { SignInMethods, RedirectSignInMethod, VerifiedIdentity } from './sign-in-methods';

/** How much of an IdP's answer is read at most. */
export const IDP_MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * The redirect sign-in methods of a process. Every request OIDC makes to an IdP goes through the
 * bounded client and its SSRF guard; SAML makes none (the browser carries both legs) and keeps its requests and used
 * assertion ids in Postgres.
 */
export function ssoSignInMethods(config: { targets: TargetsConfig; sso: SsoConfig; urls: { app: string } }, orm: MikroORM): SignInMethods {
  // Discovery documents, key sets and token answers are a few KiB; 1 MiB leaves room for a large key set.
  const fetch = outboundFetch({
    target: 'supplied',
    allowPrivate: config.targets.allowPrivate,
    ca: config.sso.ca,
    headers: { 'User-Agent': 'Klaxon-SSO/1' },
    maxBytes: IDP_MAX_RESPONSE_BYTES,
  });
  return { oidc: oidcSignInMethod(fetch), saml: samlSignInMethod(() => knexOf(orm), config.urls.app) };
}
