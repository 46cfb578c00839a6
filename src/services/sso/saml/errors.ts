import { SamlStatusError } from '@node-saml/node-saml';
import { DomainError } from '../../errors';

/**
 * Why a SAML sign-in was refused. The ACS route answers 401 with the code (400 for
 * `saml_invalid` input that never reached a signature check is fine too); the message is safe to
 * show: it never holds the posted XML, a certificate or a name from the document.
 */
export type SamlRejectionCode =
  /** No valid signature over the response or its assertion, by any of the IdP's certificates. */
  | 'saml_unsigned'
  /** The assertion is for another service provider (Audience is not our entity id). */
  | 'saml_audience'
  /** Sent to another endpoint (Destination or SubjectConfirmationData Recipient is not our ACS URL). */
  | 'saml_recipient'
  /** Issued by someone else than the workspace's IdP (the assertion's Issuer). */
  | 'saml_issuer'
  /** Outside its time window (NotBefore / NotOnOrAfter, beyond the allowed clock skew). */
  | 'saml_expired'
  /** This assertion id was already used to sign in. */
  | 'saml_replayed'
  /** Not an answer to a request we made and still wait for (InResponseTo, RelayState). */
  | 'saml_unsolicited'
  /** The IdP answered with a failure status (the person could not or would not sign in). */
  | 'saml_idp_status'
  /** Anything else: too large, not XML, not a SAML Response, no usable email, wrong issuer. */
  | 'saml_invalid';

/** A refused SAML response or request: a `DomainError` of kind `unauthorized` with a machine code. */
export class SamlRejected extends DomainError {
  constructor(
    override readonly code: SamlRejectionCode,
    message: string,
    /** node-saml's own words, for the server log only (cut short; it never quotes the XML). */
    readonly reason?: string,
  ) {
    super('unauthorized', message, code);
    this.name = 'SamlRejected';
  }
}

export const samlRejected = (code: SamlRejectionCode, message: string, reason?: string) => new SamlRejected(code, message, reason);

const LIBRARY_MESSAGES: Record<SamlRejectionCode, string> = {
  saml_unsigned: "The SAML response is not signed by the workspace's identity provider",
  saml_audience: 'The SAML assertion is meant for another service provider',
  saml_recipient: "The SAML response was sent to another service provider's address",
  saml_issuer: "The SAML assertion was not issued by the workspace's identity provider",
  saml_expired: 'The SAML assertion is outside its validity window',
  saml_replayed: 'This SAML assertion was already used to sign in',
  saml_unsolicited: 'The SAML response answers no sign-in started here',
  saml_idp_status: 'The identity provider did not sign the person in',
  saml_invalid: 'The SAML response could not be read',
};

/** node-saml's message fragments, in the order they are tried (node-saml 5.1's wording). */
const LIBRARY_CODES: Array<[string, SamlRejectionCode]> = [
  ['InResponseTo', 'saml_unsolicited'],
  ['signature', 'saml_unsigned'],
  ['Cannot obtain assertion from signed data', 'saml_unsigned'],
  ['audience', 'saml_audience'],
  ['AudienceRestriction', 'saml_audience'],
  ['expired', 'saml_expired'],
  ['not yet valid', 'saml_expired'],
  // node-saml says so when no SubjectConfirmation passed its time check.
  ['No valid subject confirmation', 'saml_expired'],
];

/** What a failure thrown by node-saml's validation means for the caller. */
export function samlRejectionOf(err: unknown): SamlRejected {
  if (err instanceof SamlRejected) return err;
  const message = err instanceof Error ? err.message : String(err);
  const reason = message.slice(0, 200);
  if (err instanceof SamlStatusError) return samlRejected('saml_idp_status', LIBRARY_MESSAGES.saml_idp_status, reason);
  const lower = message.toLowerCase();
  const code = LIBRARY_CODES.find(([fragment]) => lower.includes(fragment.toLowerCase()))?.[1] ?? 'saml_invalid';
  return samlRejected(code, LIBRARY_MESSAGES[code], reason);
}
