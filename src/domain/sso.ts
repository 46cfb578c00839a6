/** Single sign-on's pure rules (docs/sso.md): email domains, and who may still log in with a password. */
import type { Role } from './roles';

/** The sign-in protocols a workspace's identity provider may speak. */
export const SSO_PROTOCOLS = ['oidc', 'saml'] as const;
export type SsoProtocol = (typeof SSO_PROTOCOLS)[number];

/** At most this many email domains route to one workspace. */
export const MAX_SSO_DOMAINS = 50;

/**
 * A DNS name as people type it in an email address: labels of letters, digits and hyphens (not at
 * either end), at least two labels. Linear: each label is a bounded run without nested repetition.
 */
const DOMAIN_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The domain in its one spelling (lower case, no trailing dot), or undefined when it is not a domain name. */
export function normaliseDomain(input: string): string | undefined {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  return domain.length <= 253 && DOMAIN_PATTERN.test(domain) ? domain : undefined;
}

/** The domain of an email address (after the last `@`), normalised; undefined when there is none. */
export function emailDomain(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  return at > 0 ? normaliseDomain(email.slice(at + 1)) : undefined;
}

/** With `require_sso`, only Billing Owners may still log in with a password: the way back in when the IdP fails. */
export const mayLogInWithPassword = (requireSso: boolean, role: Role): boolean => !requireSso || role === 'BILLING_OWNER';

/** What a domain's DNS TXT record says, after this, to prove a workspace controls it (docs/sso.md). */
export const DOMAIN_PROOF_PREFIX = 'klaxon-verification=';

/** The TXT record a workspace publishes at its domain to prove it: `klaxon-verification=<token>`. */
export const txtRecordOf = (token: string): string => `${DOMAIN_PROOF_PREFIX}${token}`;

/**
 * True when one of a domain's TXT records is exactly the proof (a record's strings joined, as DNS
 * splits long ones into 255-byte pieces; surrounding blanks ignored).
 */
export const provesDomain = (records: readonly (readonly string[])[], token: string): boolean =>
  records.some((chunks) => chunks.join('').trim() === txtRecordOf(token));

/** A step-up at the identity provider counts only for a sign-in there this recent (SAML AuthnInstant, OIDC auth_time). */
export const IDP_STEP_UP_MAX_AGE_MS = 120_000;

/** How far ahead of our clock an IdP's authentication time may be (its clock may run ahead a little). */
const IDP_CLOCK_SKEW_MS = 30_000;

/** True when the IdP authenticated the person within the last two minutes (an unknown time is not fresh). */
export function isFreshIdpAuthentication(authenticatedAt: Date | undefined, now: Date): boolean {
  if (!authenticatedAt || Number.isNaN(authenticatedAt.getTime())) return false;
  const age = now.getTime() - authenticatedAt.getTime();
  return age <= IDP_STEP_UP_MAX_AGE_MS && age >= -IDP_CLOCK_SKEW_MS;
}
