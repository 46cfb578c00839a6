/**
 * OpenID Connect sign-in (docs/sso.md) with `openid-client`: discovery, authorization code with
 * PKCE (S256), state and nonce; the library checks the ID token's signature, issuer, audience,
 * expiry, nonce and (for a step-up) `auth_time` against `max_age`. Every request to the IdP goes
 * through the bounded client and its SSRF guard (src/services/outbound).
 */
import { LRUCache } from 'lru-cache';
import { unauthorized } from '../errors';
import type { OutboundFetch } from '../outbound';
import type { LoginConnection } from './connections';
import { openId, type OpenIdConfiguration } from './openid-client';
import type { RedirectSignInMethod, VerifiedIdentity } from './sign-in-methods';

/** Requests to the IdP (discovery, keys, token, userinfo): through the bounded client and the SSRF guard. */
export type IdpFetch = OutboundFetch;

/** Seconds each request to the IdP may take. */
const IDP_TIMEOUT_SECONDS = 10;

/** What a failed check tells the person (never a token or a code). */
const failed = (why: string) => unauthorized(`single sign-on failed: ${why.slice(0, 300)}`, 'sso_failed');

/**
 * Why openid-client refused: its message is generic ("unexpected JWT claim value", "something went
 * wrong"); its cause names the check or the guard's refusal. Neither holds a token, code or secret.
 */
function reasonOf(err: unknown): string {
  const message = (err as Error).message;
  const cause = (err as { cause?: { message?: unknown } }).cause?.message;
  return typeof cause === 'string' && cause !== message ? `${message}: ${cause}` : message;
}

/**
 * The IdP's configuration (discovery document and keys' location) for a connection, discovered
 * once per settings version and kept 10 minutes: a login does not pay for discovery twice.
 */
function oidcConfigurations(fetch: IdpFetch) {
  const cache = new LRUCache<string, Promise<OpenIdConfiguration>>({ max: 500, ttl: 10 * 60_000 });
  return async (connection: LoginConnection): Promise<OpenIdConfiguration> => {
    const key = `${connection.organizationId}:${connection.version}`;
    let found = cache.get(key);
    if (!found) {
      found = discover(fetch, connection);
      cache.set(key, found);
      // A failed discovery is not remembered: the next login tries again.
      found.catch(() => cache.delete(key));
    }
    return found;
  };
}

/** Discovery from the issuer; the client authenticates at the token endpoint the way the IdP supports (Basic preferred). */
async function discover(fetch: IdpFetch, connection: LoginConnection): Promise<OpenIdConfiguration> {
  const oidc = await openId();
  const { issuer, client_id: clientId } = connection.settings;
  if (!connection.clientSecret) throw failed('the client secret cannot be read (was KLAXON_SECRET changed?): save the SSO settings again');
  const options = { [oidc.customFetch]: fetch as never, timeout: IDP_TIMEOUT_SECONDS };
  let found: OpenIdConfiguration;
  try {
    found = await oidc.discovery(new URL(issuer), clientId, connection.clientSecret, undefined, options);
  } catch (err) {
    throw failed(`discovery at the issuer did not work (${reasonOf(err)})`);
  }
  const server = found.serverMetadata();
  const methods = server.token_endpoint_auth_methods_supported;
  const auth =
    methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')
      ? oidc.ClientSecretPost(connection.clientSecret)
      : oidc.ClientSecretBasic(connection.clientSecret);
  const config = new oidc.Configuration(server, clientId, connection.clientSecret, auth);
  config[oidc.customFetch] = fetch as never;
  config.timeout = IDP_TIMEOUT_SECONDS;
  return config;
}

/** The OIDC sign-in method: `begin` builds the authorization URL, `finish` redeems the code and checks the ID token. */
export function oidcSignInMethod(fetch: IdpFetch): RedirectSignInMethod {
  const configurationOf = oidcConfigurations(fetch);
  return {
    protocol: 'oidc',
    async test(connection) {
      const server = (await discover(fetch, connection)).serverMetadata();
      return { issuer: server.issuer, authorization_endpoint: server.authorization_endpoint ?? null, token_endpoint: server.token_endpoint ?? null };
    },
    async begin(connection, request) {
      const oidc = await openId();
      const config = await configurationOf(connection);
      const verifier = oidc.randomPKCECodeVerifier();
      const nonce = oidc.randomNonce();
      const parameters: Record<string, string> = {
        redirect_uri: request.returnUrl,
        response_type: 'code',
        scope: 'openid email profile',
        state: request.state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        ...(request.loginHint && { login_hint: request.loginHint }),
        ...(request.reauthenticate && { max_age: '0', prompt: 'login' }),
      };
      return { redirectUrl: oidc.buildAuthorizationUrl(config, parameters).href, secrets: { verifier, nonce } };
    },
    async finish(connection, response, request, secrets) {
      const oidc = await openId();
      const config = await configurationOf(connection);
      let identity: VerifiedIdentity;
      try {
        const tokens = await oidc.authorizationCodeGrant(
          config,
          response.url,
          {
            pkceCodeVerifier: secrets.verifier,
            expectedState: request.state,
            expectedNonce: secrets.nonce,
            idTokenExpected: true,
            ...(request.reauthenticate && { maxAge: 0 }),
          },
          { redirect_uri: request.returnUrl },
        );
        const claims = tokens.claims();
        if (!claims) throw new Error('no ID token');
        // Many IdPs put email in the ID token; the others (and oidc-provider by default) only answer it at userinfo.
        const profile = typeof claims.email === 'string' ? claims : await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        if (typeof profile.email !== 'string') throw new Error('the identity provider gave no email address (ask for the `email` scope)');
        identity = {
          protocol: 'oidc',
          issuer: claims.iss,
          subject: claims.sub,
          email: profile.email,
          emailVerified: profile.email_verified === true,
          ...(typeof profile.name === 'string' && { name: profile.name }),
          ...(typeof claims.auth_time === 'number' && { authenticatedAt: new Date(claims.auth_time * 1000) }),
        };
      } catch (err) {
        if ((err as { code?: string }).code === 'sso_failed') throw err;
        throw failed(reasonOf(err));
      }
      return identity;
    },
  };
}
