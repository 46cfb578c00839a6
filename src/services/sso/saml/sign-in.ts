import { randomBytes, timingSafeEqual } from 'node:crypto';
import { SAML } from '@node-saml/node-saml';
import type { Knex } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { consumeAssertionId } from './assertion-replay';
import { samlRejected, samlRejectionOf } from './errors';
import type { SamlIdpConfig } from './idp-config';
import { claimedRequestCache, claimSamlRequest, SamlRequestCache } from './request-cache';
import { samlAcsUrlOf, samlOptionsFor, type SamlServiceProvider } from './service-provider';
import { readSignedAssertion } from './signed-assertion';
import { parseXmlDocument, SAML_NS } from './xml-document';

/** Caps on what the IdP posts, checked before anything decodes it (docs/sso-saml.md, "Limits"). */
export const SAML_POST_LIMITS = {
  /**
   * The base64 SAMLResponse field. Real responses are a few KB, tens with a long group list.
   * Checking a signature holds the event loop about 0.7 ms per KB (docs/sso-saml.md, "Limits"),
   * and anyone can start a sign-in and post a forged answer: 128 KB keeps that under 0.1 s.
   */
  samlResponseChars: 128 * 1024,
  /** The SAML bindings spec caps RelayState at 80 bytes; ours are 43. */
  relayStateBytes: 80,
} as const;

/** Where the browser goes next, and what was recorded for the answer. */
export interface SamlSignInStart {
  /** The IdP's SSO URL with the deflated AuthnRequest and our RelayState (HTTP-Redirect binding). */
  redirectUrl: string;
  /** The AuthnRequest's ID; its answer must carry it as InResponseTo. */
  requestId: string;
  /** Opaque, 43 characters; the IdP posts it back. The route may also keep it in a cookie. */
  relayState: string;
}

/** Who the IdP signed in, for which workspace: what the sign-in seam turns into a session. */
export interface SamlIdentity {
  organizationId: string;
  /** Lower-cased. */
  email: string;
  nameId: string;
  nameIdFormat: string | null;
  /** The IdP's entity id. */
  issuer: string;
  sessionIndex: string | null;
  assertionId: string;
  /** The assertion's AuthnInstant, if it had one. */
  authnInstant: Date | null;
}

/** The form fields the IdP posts to the ACS URL (HTTP-POST binding). */
export interface SamlAcsInput {
  appUrl: string;
  /** The parsed `application/x-www-form-urlencoded` body, as is. */
  body: Record<string, unknown>;
  /** The workspace's current IdP config, or null when SAML is no longer set up there. */
  idpConfigOf: (organizationId: string) => Promise<SamlIdpConfig | null>;
}

const acsBodySchema = z.object({
  SAMLResponse: z
    .string()
    .min(1)
    .max(SAML_POST_LIMITS.samlResponseChars)
    // Linear: one character class, no nesting. Line breaks are allowed (some IdPs wrap at 76).
    .regex(/^[A-Za-z0-9+/=\r\n]+$/),
  RelayState: z.string().refine((s) => Buffer.byteLength(s, 'utf8') <= SAML_POST_LIMITS.relayStateBytes),
});

const sameText = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Starts SP-initiated sign-in for a workspace: records a new AuthnRequest (id, workspace,
 * RelayState) in Postgres through node-saml's cache, and answers the IdP URL to redirect to.
 */
export async function startSamlSignIn(
  knex: Knex,
  sp: SamlServiceProvider,
  idp: SamlIdpConfig,
  opts: { relayState?: string; forceAuthn?: boolean } = {},
): Promise<SamlSignInStart> {
  // The sign-in seam passes its attempt's state, so the IdP's post finds that attempt (src/services/sso/saml-method.ts).
  const relayState = opts.relayState ?? randomBytes(32).toString('base64url');
  if (Buffer.byteLength(relayState, 'utf8') > SAML_POST_LIMITS.relayStateBytes) throw new Error('RelayState is over 80 bytes');
  // node-saml's own id format (`_` + 160 random bits), chosen here so we can answer it.
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const cache = new SamlRequestCache(knex, { organizationId: sp.organizationId, relayState });
  // ForceAuthn: a step-up makes the IdP authenticate the person again.
  const saml = new SAML({ ...samlOptionsFor(sp, idp, cache), forceAuthn: opts.forceAuthn === true, generateUniqueId: () => requestId });
  const redirectUrl = await saml.getAuthorizeUrlAsync(relayState, undefined, {});
  return { redirectUrl, requestId, relayState };
}

/** The InResponseTo and Destination of a posted Response, read before any check to find its request. */
function unverifiedEnvelope(xml: string): { inResponseTo: string | null; destination: string | null } {
  const doc = parseXmlDocument(xml);
  if (!doc.ok || doc.root.namespaceURI !== SAML_NS.protocol || doc.root.localName !== 'Response') {
    throw samlRejected('saml_invalid', 'The posted SAMLResponse is not a SAML 2.0 Response');
  }
  return { inResponseTo: doc.root.getAttribute('InResponseTo') || null, destination: doc.root.getAttribute('Destination') || null };
}

/**
 * Validates what the IdP posted to the ACS URL and answers who signed in, or throws
 * `SamlRejected`. In order: sizes; the request it answers (InResponseTo, taken out of Postgres
 * atomically, so it answers once) and its RelayState; Destination; then node-saml with the
 * workspace's certificates (signature of the response or of the assertion, audience, time window
 * with the clock skew, InResponseTo again on the signed SubjectConfirmationData); then, on the
 * signed assertion, Issuer and Recipient; last, the assertion id is spent (one-time).
 */
export async function completeSamlSignIn(knex: Knex, input: SamlAcsInput): Promise<SamlIdentity> {
  const body = acsBodySchema.safeParse(input.body);
  if (!body.success) {
    const field = body.error.issues[0]?.path[0];
    if (field === 'RelayState') throw samlRejected('saml_unsolicited', 'The SAML response carries no RelayState of ours');
    throw samlRejected('saml_invalid', `The posted SAMLResponse is missing, not base64 or over ${SAML_POST_LIMITS.samlResponseChars / 1024} KB`);
  }
  const xml = Buffer.from(body.data.SAMLResponse, 'base64').toString('utf8');
  const envelope = unverifiedEnvelope(xml);
  if (!envelope.inResponseTo) throw samlRejected('saml_unsolicited', 'The SAML response answers no request (IdP-initiated sign-in is not accepted)');

  const request = await claimSamlRequest(knex, envelope.inResponseTo);
  if (!request) throw samlRejected('saml_unsolicited', 'The SAML response answers no sign-in started here, or one that expired or was used');
  if (!sameText(body.data.RelayState, request.relayState)) throw samlRejected('saml_unsolicited', 'The SAML response carries another RelayState');

  const acsUrl = samlAcsUrlOf(input.appUrl);
  if (envelope.destination !== null && envelope.destination !== acsUrl) {
    throw samlRejected('saml_recipient', "The SAML response's Destination is not this service's ACS URL");
  }
  const idp = await input.idpConfigOf(request.organizationId);
  if (!idp) throw samlRejected('saml_invalid', 'SAML sign-in is not set up for this workspace any more');

  const sp = { appUrl: input.appUrl, organizationId: request.organizationId };
  const saml = new SAML(samlOptionsFor(sp, idp, claimedRequestCache(request)));
  let profile;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: body.data.SAMLResponse }));
  } catch (err) {
    throw samlRejectionOf(err);
  }
  if (!profile) throw samlRejected('saml_invalid', 'The SAML response signs nobody in');

  const facts = readSignedAssertion(profile, { idpEntityId: idp.entityId, acsUrl });
  const first = await consumeAssertionId(knex, { organizationId: request.organizationId, assertionId: facts.assertionId, expiresAt: facts.expiresAt });
  if (!first) throw samlRejected('saml_replayed', 'This SAML assertion was already used to sign in');
  return {
    organizationId: request.organizationId,
    email: facts.email,
    nameId: facts.nameId,
    nameIdFormat: facts.nameIdFormat,
    issuer: facts.issuer,
    sessionIndex: facts.sessionIndex,
    assertionId: facts.assertionId,
    authnInstant: facts.authnInstant,
  };
}
