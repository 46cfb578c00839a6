import type { Profile } from '@node-saml/node-saml';
import { z } from 'zod';
import { MAX_ASSERTION_ID_LENGTH } from './assertion-replay';
import { samlRejected } from './errors';
import { EMAIL_NAME_ID_FORMAT, SAML_CLOCK_SKEW_MS } from './service-provider';

/**
 * What Klaxon takes from an assertion node-saml has verified. Everything here is read from
 * `profile.getAssertion()`, node-saml's parse of the signed bytes only (never the document around
 * them), in the same shape node-saml ran its own checks on.
 */
export interface SignedAssertionFacts {
  assertionId: string;
  issuer: string;
  /** Lower-cased email: the NameID (emailAddress format) or the email attribute. */
  email: string;
  nameId: string;
  nameIdFormat: string | null;
  sessionIndex: string | null;
  /** The AuthnStatement's AuthnInstant: when the IdP authenticated the person (a step-up needs it recent); null when absent. */
  authnInstant: Date | null;
  /** When the assertion stops being accepted: its earliest NotOnOrAfter plus the clock skew. */
  expiresAt: Date;
}

/** What the assertion must say about where it was sent and by whom. */
export interface AssertionExpectations {
  idpEntityId: string;
  acsUrl: string;
}

type XmlJs = { $?: Record<string, string>; _?: string } & { [child: string]: XmlJs[] | Record<string, string> | string | undefined };

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const UNSPECIFIED_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';
/** Where IdPs put the email when the NameID is not one (node-saml maps `mail` and its OID to `email`). */
const EMAIL_ATTRIBUTES = ['email', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'emailAddress', 'Email'];
const emailOf = z.string().max(320).trim().toLowerCase().pipe(z.email());

const children = (node: XmlJs | undefined, name: string): XmlJs[] => {
  const value = node?.[name];
  return Array.isArray(value) ? value : [];
};
const textOf = (node: XmlJs | undefined): string | null => (typeof node?._ === 'string' ? node._ : null);
const attrOf = (node: XmlJs | undefined, name: string): string | null => node?.$?.[name] ?? null;

function timeOf(value: string | null): number | null {
  if (value === null) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw samlRejected('saml_invalid', 'The SAML assertion has an unreadable time');
  return ms;
}

/** One value of a single-valued attribute, or null (several values would leave us guessing). */
function singleValue(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The sign-in email: the NameID when it is an email, else the email attribute. */
function emailFrom(profile: Profile): string {
  const format = profile.nameIDFormat ?? null;
  const candidates: Array<string | null> = [];
  if (format === EMAIL_NAME_ID_FORMAT) candidates.push(profile.nameID);
  for (const name of EMAIL_ATTRIBUTES) candidates.push(singleValue(profile[name]));
  if (format === null || format === UNSPECIFIED_NAME_ID) candidates.push(profile.nameID);
  for (const candidate of candidates) {
    if (candidate === null || candidate === undefined) continue;
    const email = emailOf.safeParse(candidate);
    if (email.success) return email.data;
  }
  throw samlRejected('saml_invalid', 'The SAML assertion carries no email address (NameID in emailAddress format, or an email attribute)');
}

/**
 * Checks what node-saml 5 leaves to us, on the signed assertion: its Issuer is the workspace's
 * IdP, every bearer SubjectConfirmation names our ACS URL as Recipient (and there is one), it has
 * an id and an end time (for the one-time check); then reads the email.
 */
export function readSignedAssertion(profile: Profile, expect: AssertionExpectations): SignedAssertionFacts {
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlJs } | undefined)?.Assertion;
  if (!assertion) throw samlRejected('saml_invalid', 'The SAML response has no readable assertion');

  const issuer = textOf(children(assertion, 'Issuer')[0])?.trim() ?? null;
  if (issuer !== expect.idpEntityId) throw samlRejected('saml_issuer', "The SAML assertion was not issued by the workspace's identity provider");

  const assertionId = attrOf(assertion, 'ID');
  if (!assertionId || assertionId.length > MAX_ASSERTION_ID_LENGTH) throw samlRejected('saml_invalid', 'The SAML assertion has no usable ID');

  const [subject] = children(assertion, 'Subject');
  const bearers = children(subject, 'SubjectConfirmation').filter((c) => attrOf(c, 'Method') === BEARER);
  const confirmations = bearers.map((c) => children(c, 'SubjectConfirmationData')[0]);
  if (confirmations.length === 0) throw samlRejected('saml_recipient', 'The SAML assertion has no bearer SubjectConfirmation');
  if (confirmations.some((data) => attrOf(data, 'Recipient') !== expect.acsUrl)) {
    throw samlRejected('saml_recipient', "The SAML assertion's Recipient is not this service's ACS URL");
  }

  const ends = [attrOf(children(assertion, 'Conditions')[0], 'NotOnOrAfter'), ...confirmations.map((data) => attrOf(data, 'NotOnOrAfter'))]
    .map(timeOf)
    .filter((ms): ms is number => ms !== null);
  if (ends.length === 0) throw samlRejected('saml_invalid', 'The SAML assertion has no NotOnOrAfter');

  const email = emailFrom(profile);
  const sessionIndex = typeof profile.sessionIndex === 'string' ? profile.sessionIndex : null;
  const instants = children(assertion, 'AuthnStatement').map((statement) => timeOf(attrOf(statement, 'AuthnInstant')));
  // Several statements: the oldest counts (a step-up must not rest on any old sign-in).
  const authnInstant = instants.length && instants.every((ms) => ms !== null) ? new Date(Math.min(...(instants as number[]))) : null;
  return {
    assertionId,
    issuer,
    email,
    nameId: profile.nameID,
    nameIdFormat: profile.nameIDFormat ?? null,
    sessionIndex,
    authnInstant,
    expiresAt: new Date(Math.min(...ends) + SAML_CLOCK_SKEW_MS),
  };
}
