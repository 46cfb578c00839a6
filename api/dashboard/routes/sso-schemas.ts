/** The bodies and answers of `/api/sso` (docs/sso.md), in zod: validation and /api/openapi.json. */
import { z } from 'zod';
import { ROLES } from '../../../src/domain/roles';
import { MAX_SSO_DOMAINS, normaliseDomain, SSO_PROTOCOLS } from '../../../src/domain/sso';
import { withSamlIdpConfig } from '../../../src/services/sso/saml';
import { FactorFields } from './security';

/** Roles a person may get by signing in for the first time: never Billing Owner. */
export const JIT_ROLES = ['ACCOUNT_ADMIN', 'TEAM_MANAGER', 'MEMBER'] as const;

const HttpsUrl = z
  .url({ protocol: /^https$/, error: 'must be an https:// URL' })
  .max(2048)
  .refine((v) => {
    // Zod runs this even when the URL check above failed ("" or "not a url"): that issue already
    // names the field, and a throw here would be a 500 instead of the 400 naming it.
    const url = URL.parse(v);
    return !url || (!url.search && !url.hash);
  }, 'must have no query or fragment');

const Domain = z
  .string()
  .max(253)
  .transform((value, ctx) => {
    const domain = normaliseDomain(value);
    if (domain) return domain;
    ctx.addIssue({ code: 'custom', message: 'must be a domain name such as example.com' });
    return z.NEVER;
  });

const Shared = {
  domains: z
    .array(Domain)
    .max(MAX_SSO_DOMAINS, `at most ${MAX_SSO_DOMAINS} domains`)
    .default([])
    .transform((list) => [...new Set(list)]),
  default_role: z.enum(JIT_ROLES, `must be one of ${JIT_ROLES.join(', ')} (never BILLING_OWNER)`).default('MEMBER'),
  require_sso: z.boolean().default(false),
  ...FactorFields,
};

const OidcBody = z
  .object({
    type: z.literal('oidc'),
    issuer: HttpsUrl,
    client_id: z.string('is required').trim().min(1, 'is required').max(255),
    client_secret: z.string().min(1).max(1024).optional(),
    ...Shared,
  })
  .strict();

const PEM_OR_BASE64 = 16 * 1024;

/** The SAML form's own fields, for the SAML core's check. */
const pickSaml = (b: { idp_metadata_xml?: string; idp_entity_id?: string; idp_sso_url?: string; idp_certificate?: string }) => ({
  idp_metadata_xml: b.idp_metadata_xml,
  idp_entity_id: b.idp_entity_id,
  idp_sso_url: b.idp_sso_url,
  idp_certificate: b.idp_certificate,
});
const SamlBody = z
  .object({
    type: z.literal('saml'),
    idp_metadata_xml: z
      .string()
      .trim()
      .min(1, 'is required: paste the identity provider’s metadata')
      .max(256 * 1024)
      .optional(),
    idp_entity_id: z.string().trim().min(1).max(1024).optional(),
    idp_sso_url: HttpsUrl.optional(),
    idp_certificate: z.string().trim().min(1).max(PEM_OR_BASE64).optional(),
    ...Shared,
  })
  .strict()
  .superRefine((body, ctx) => {
    // Empty metadata: its length check already named the field (zod runs this refinement anyway).
    if (body.idp_metadata_xml === '') return;
    const manual = ['idp_entity_id', 'idp_sso_url', 'idp_certificate'] as const;
    const problems: Array<{ path: string; message: string }> = [];
    if (body.idp_metadata_xml !== undefined) {
      for (const field of manual)
        if (body[field] !== undefined) problems.push({ path: field, message: 'give idp_metadata_xml or the three idp_* fields, not both' });
      if (!body.idp_metadata_xml.startsWith('<')) problems.push({ path: 'idp_metadata_xml', message: 'must be the IdP metadata XML' });
    } else {
      for (const field of manual) if (body[field] === undefined) problems.push({ path: field, message: 'is required (or give idp_metadata_xml instead)' });
    }
    for (const p of problems) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
    // Then what sign-in will read (docs/sso-saml.md): the metadata parsed, the certificate read, the URL https.
    if (problems.length === 0) withSamlIdpConfig({ type: 'saml', ...pickSaml(body) }, ctx);
  });

/** `PUT /api/sso` (and `POST /api/sso/test`): OIDC or SAML settings with the shared fields; a step-up factor may ride along. */
export const SsoBody = z.discriminatedUnion('type', [OidcBody, SamlBody], { error: 'type: must be oidc or saml' });

/** What `GET /api/sso` answers. */
export const SsoSettingsSchema = z
  .object({
    type: z.enum(SSO_PROTOCOLS),
    issuer: z.string().optional(),
    client_id: z.string().optional(),
    client_secret_set: z.boolean().optional().describe('the client secret itself is never answered'),
    idp_metadata_xml: z.string().optional(),
    idp_entity_id: z.string().optional(),
    idp_sso_url: z.string().optional(),
    idp_certificate: z.string().optional(),
    domains: z.array(
      z.object({
        domain: z.string(),
        verified: z.boolean().describe('proven by its DNS TXT record: only then does it route logins and admit people'),
        txt_record: z.string().describe('the TXT record to publish at the domain: `klaxon-verification=<token>`'),
      }),
    ),
    default_role: z.enum(ROLES),
    require_sso: z.boolean(),
    updated_at: z.iso.datetime(),
  })
  .describe('never the client secret');

/** `POST /api/sso/domains/{domain}/verify`: the domain as listed (any case, a trailing dot allowed). */
export const DomainParams = z.object({ domain: Domain });

/** Its answer once the TXT record is found. */
export const VerifiedDomainSchema = z.object({ domain: z.string(), verified: z.literal(true) });
