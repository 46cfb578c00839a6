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
