/**
 * The seam every way of signing in goes through (docs/sso.md). A password login proves a person
 * by what they send; an identity provider's method (OIDC now, SAML next) proves them by a
 * redirect to the IdP and back. Either way the result is a signed-in person, and one function
 * (src/services/accounts/open-session.ts) applies the workspace's policy and opens the session.
 * A new IdP protocol is one more `RedirectSignInMethod` in the registry; nothing else changes.
 */
import type { SsoProtocol } from '../../domain/sso';
import type { LoginConnection } from './connections';

/** Who the identity provider says signed in, once its answer has been checked. */
export interface VerifiedIdentity {
  protocol: SsoProtocol;
  /** The OIDC issuer (or SAML IdP entity id) that vouched. */
  issuer: string;
  /** Its stable id for the person: `sub` (or the SAML NameID). */
  subject: string;
  email: string;
  /** OIDC `email_verified` (a SAML IdP vouches for the addresses it asserts). */
  emailVerified: boolean;
  name?: string;
  /** When the IdP authenticated the person (SAML AuthnInstant, OIDC auth_time), if it said: a step-up needs it recent. */
  authenticatedAt?: Date;
}

/** One round trip to the IdP, as Klaxon started it. */
export interface RedirectRequest {
  /** The one-time value that names the attempt when the browser comes back (OIDC `state`, SAML `RelayState`). */
  state: string;
  /** Where the IdP sends the browser back: `{app_url}/auth/sso/oidc/callback` or `/auth/sso/saml/acs`. */
  returnUrl: string;
  /** Step-up: the IdP must authenticate the person again now (OIDC `max_age=0` and `prompt=login`, SAML `ForceAuthn`). */
  reauthenticate: boolean;
  /** The address the person typed, passed on as a hint (OIDC `login_hint`). */
  loginHint?: string;
}

/** What the IdP sent back: the URL it returned to (OIDC), and a posted form (SAML). */
export interface RedirectResponse {
  url: URL;
  form?: Record<string, string>;
}

/** A sign-in method that sends the browser to the workspace's identity provider and checks what comes back. */
export interface RedirectSignInMethod {
  protocol: SsoProtocol;
  /** Where to send the browser, and the secrets (nonce, PKCE verifier, request id) the answer is checked against: kept server-side, sealed. */
  begin(connection: LoginConnection, request: RedirectRequest): Promise<{ redirectUrl: string; secrets: Record<string, string> }>;
  /** Checks the IdP's answer (signatures, issuer, audience, state, nonce, PKCE, time) and says who signed in; throws `sso_failed` otherwise. */
  finish(connection: LoginConnection, response: RedirectResponse, request: RedirectRequest, secrets: Record<string, string>): Promise<VerifiedIdentity>;
  /** "Test the connection" before saving: reaches the IdP with these settings and says what it found; throws `sso_failed` otherwise. */
  test(connection: LoginConnection): Promise<Record<string, unknown>>;
}

/** The redirect methods by protocol; a protocol missing here is stored but cannot sign anyone in yet. */
export type SignInMethods = Partial<Record<SsoProtocol, RedirectSignInMethod>>;
