/** The single sign-on settings form (docs/sso.md): what `GET /api/sso` answers, and the body of `PUT /api/sso`. */

export const JIT_ROLES = ['MEMBER', 'TEAM_MANAGER', 'ACCOUNT_ADMIN'] as const;
export type JitRole = (typeof JIT_ROLES)[number];

/** A listed email domain: proven or not, and the DNS TXT record that proves it. */
export interface SsoDomain {
  domain: string;
  verified: boolean;
  txt_record: string;
}

/** `GET /api/sso`: OIDC's fields, or SAML's (the IdP's metadata XML, or its entity id, URL and certificate). */
export interface SsoSettings {
  type: 'oidc' | 'saml';
  issuer?: string;
  client_id?: string;
  client_secret_set?: boolean;
  idp_metadata_xml?: string;
  idp_entity_id?: string;
  domains: SsoDomain[];
  default_role: JitRole;
  require_sso: boolean;
  updated_at: string;
}

export interface SsoForm {
  protocol: 'oidc' | 'saml';
  issuer: string;
  clientId: string;
  /** Empty: keep the stored secret. */
  clientSecret: string;
  /** Comma- or space-separated, as typed. */
  domains: string;
  defaultRole: JitRole;
  requireSso: boolean;
  /** SAML: the IdP's metadata XML, pasted. */
  metadataXml: string;
}

export const emptySsoForm = (): SsoForm => ({
  protocol: 'oidc',
  issuer: '',
  clientId: '',
  clientSecret: '',
  domains: '',
  defaultRole: 'MEMBER',
  requireSso: false,
  metadataXml: '',
});

/** The form filled from stored settings (the secret is never answered: left empty). */
export const formOf = (s: SsoSettings): SsoForm => ({
  protocol: s.type,
  metadataXml: s.idp_metadata_xml ?? '',
  issuer: s.issuer ?? '',
  clientId: s.client_id ?? '',
  clientSecret: '',
  domains: s.domains.map((d) => d.domain).join(', '),
  defaultRole: s.default_role,
  requireSso: s.require_sso,
});

/** The domains typed, each once, lower case, without blanks. */
export const domainsOf = (typed: string): string[] => [
  ...new Set(
    typed
      .split(/[\s,]+/)
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean),
  ),
];

/** The body of `PUT /api/sso` and `POST /api/sso/test`: SAML's metadata, or OIDC's fields (`client_secret` only when one was typed). */
export function ssoBody(form: SsoForm) {
  const shared = { domains: domainsOf(form.domains), default_role: form.defaultRole, require_sso: form.requireSso };
  if (form.protocol === 'saml') return { type: 'saml' as const, idp_metadata_xml: form.metadataXml.trim(), ...shared };
  return {
    type: 'oidc' as const,
    issuer: form.issuer.trim(),
    client_id: form.clientId.trim(),
    ...(form.clientSecret ? { client_secret: form.clientSecret } : {}),
    domains: domainsOf(form.domains),
    default_role: form.defaultRole,
    require_sso: form.requireSso,
  };
}

/**
 * The part of a refusal that names `field`: the server lists every bad field, `issuer: must be an
 * https:// URL; client_id: is required`, and each input shows only its own.
 */
export function fieldPart(message: string | undefined, field: string): string | undefined {
  return message?.split('; ').find((part) => [`${field}:`, `${field}.`, `${field}[`].some((head) => part.startsWith(head)));
}
