/** Single sign-on (docs/sso.md): settings, the sign-in methods behind one seam, and the sign-in use cases. */
import type { SsoConfig, TargetsConfig } from '../../config';
import { guardedFetch } from '../targets/guarded-fetch';
import { oidcSignInMethod } from './oidc';
import type { SignInMethods } from './sign-in-methods';

export * from './connections';
export * from './sign-in';
export type { SignInMethods, RedirectSignInMethod, VerifiedIdentity } from './sign-in-methods';

/** The redirect sign-in methods of a process; every request they make to an IdP goes through the SSRF guard. */
export function ssoSignInMethods(config: { targets: TargetsConfig; sso: SsoConfig }): SignInMethods {
  const fetch = guardedFetch({ allowPrivate: config.targets.allowPrivate, ca: config.sso.ca });
  return { oidc: oidcSignInMethod(fetch) };
}
