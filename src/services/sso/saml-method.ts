/**
 * SAML behind the sign-in seam (docs/sso.md, docs/sso-saml.md): the seam's attempt `state` is the
 * RelayState, so the IdP's post to the ACS URL finds the attempt it answers; the SAML core
 * (./saml) checks the answer: the request it answers (InResponseTo), its RelayState, signatures,
 * audience, recipient, time window, and the assertion id once.
 */
import type { Knex } from '@mikro-orm/postgresql';
import type { LoginConnection } from './connections';
import { completeSamlSignIn, SamlRejected, samlIdpSettingsSchema, startSamlSignIn, type SamlIdpConfig } from './saml';
import type { RedirectSignInMethod } from './sign-in-methods';

/** The workspace's IdP as stored settings give it (metadata XML, or entity id, URL and certificate). */
function idpOf(connection: LoginConnection): SamlIdpConfig {
  const parsed = samlIdpSettingsSchema.safeParse({ type: 'saml', ...connection.settings });
  if (!parsed.success) throw new SamlRejected('saml_invalid', "the workspace's SAML settings no longer read: save them again in Single sign-on");
  return parsed.data.idp;
}

export function samlSignInMethod(db: () => Knex, appUrl: string): RedirectSignInMethod {
  return {
    protocol: 'saml',
    async begin(connection, request) {
      const sp = { appUrl, organizationId: connection.organizationId };
      const started = await startSamlSignIn(db(), sp, idpOf(connection), { relayState: request.state, forceAuthn: request.reauthenticate });
      return { redirectUrl: started.redirectUrl, secrets: { saml_request_id: started.requestId } };
    },
    async finish(connection, response) {
      const identity = await completeSamlSignIn(db(), {
        appUrl,
        body: response.form ?? {},
        idpConfigOf: async (organizationId) => (organizationId === connection.organizationId ? idpOf(connection) : null),
      });
      return {
        protocol: 'saml',
        issuer: identity.issuer,
        subject: identity.nameId,
        email: identity.email,
        emailVerified: true,
        ...(identity.authnInstant && { authenticatedAt: identity.authnInstant }),
      };
    },
    async test(connection) {
      const idp = idpOf(connection);
      return { entity_id: idp.entityId, sso_url: idp.ssoUrl, signing_certificates: idp.certificates.length };
    },
  };
}
