import { generateServiceProviderMetadata, ValidateInResponseTo, type CacheProvider, type SamlConfig } from '@node-saml/node-saml';
import type { SamlIdpConfig } from './idp-config';

/** Where the IdP posts its answer (HTTP-POST binding), the same for every workspace. */
export const SAML_ACS_PATH = '/auth/sso/saml/acs';
/** Per-workspace SP metadata; its URL is also the workspace's SP entity id (and Audience). */
export const SAML_METADATA_PATH = '/auth/sso/saml/metadata';
/** We ask for, and expect, an email address as the NameID. */
export const EMAIL_NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/**
 * Clocks of the IdP and of our API processes differ: a minute either way on NotBefore and
 * NotOnOrAfter keeps a freshly issued assertion from being refused as "not yet valid", while an
 * assertion stays replayable at most a minute past its end (and never twice: assertion-replay.ts).
 */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** How long an AuthnRequest waits for its answer: enough to type a password and a second factor. */
export const SAML_REQUEST_TTL_MS = 10 * 60_000;

/** The workspace's SP entity id: `{app_url}/auth/sso/saml/metadata/{org}`. */
export const samlEntityIdOf = (appUrl: string, organizationId: string): string => `${appUrl}${SAML_METADATA_PATH}/${encodeURIComponent(organizationId)}`;
/** The assertion consumer service URL: `{app_url}/auth/sso/saml/acs`. */
export const samlAcsUrlOf = (appUrl: string): string => `${appUrl}${SAML_ACS_PATH}`;

/** Where a workspace's SAML service provider lives: APP_URL (no trailing slash) and the workspace. */
export interface SamlServiceProvider {
  appUrl: string;
  organizationId: string;
}

/**
 * node-saml's options for one workspace and its IdP. The signature rule: with both `want…Signed`
 * false, node-saml 5 still refuses a response unless the Response's own signature verifies or,
 * failing that, the Assertion's does (`wantAssertionsSigned || !validSignature` in
 * `validatePostResponseAsync`), and it reads the identity only from the signed bytes. That is
 * exactly "a signed response or a signed assertion"; `wantAssertionsSigned: true` would refuse
 * IdPs that sign only the response, `wantAuthnResponseSigned: true` those that sign only the
 * assertion. test/integration/sso/saml/acs.test.ts pins the refusal of unsigned documents.
 */
export function samlOptionsFor(sp: SamlServiceProvider, idp: SamlIdpConfig, cacheProvider: CacheProvider): SamlConfig {
  const entityId = samlEntityIdOf(sp.appUrl, sp.organizationId);
  return {
    issuer: entityId,
    audience: entityId,
    callbackUrl: samlAcsUrlOf(sp.appUrl),
    entryPoint: idp.ssoUrl,
    idpCert: idp.certificates,
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SAML_REQUEST_TTL_MS,
    cacheProvider,
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    // The IdP decides how strongly to authenticate (its MFA policy): an `exact`
    // PasswordProtectedTransport request makes IdPs that used a second factor refuse.
    disableRequestedAuthnContext: true,
    authnRequestBinding: 'HTTP-Redirect',
    // We never sign requests and hold no decryption key: an encrypted assertion is refused.
    // The assertion's Issuer is checked by signed-assertion.ts (node-saml's `idpIssuer` covers logout only).
  };
}

/** The workspace's SP metadata XML, for the IdP's administrator to import. */
export function samlServiceProviderMetadata(sp: SamlServiceProvider): string {
  return generateServiceProviderMetadata({
    issuer: samlEntityIdOf(sp.appUrl, sp.organizationId),
    callbackUrl: samlAcsUrlOf(sp.appUrl),
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    // Asks the IdP to sign assertions (the common setting); a signed response is accepted too.
    wantAssertionsSigned: true,
  });
}
