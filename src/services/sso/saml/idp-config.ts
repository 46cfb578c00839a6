import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { parseXmlDocument, SAML_NS } from './xml-document';

/** What Klaxon needs to know about a workspace's SAML identity provider, whichever form it came in. */
export interface SamlIdpConfig {
  /** The IdP's entity id: the Issuer its responses carry. */
  entityId: string;
  /** Where the browser is sent with the AuthnRequest (HTTP-Redirect binding). */
  ssoUrl: string;
  /** PEM certificates whose keys may sign responses (several during a key rollover). */
  certificates: string[];
}

/** Caps checked before anything parses the text (docs/sso-saml.md, "Limits"). */
export const SAML_IDP_LIMITS = {
  metadataBytes: 256 * 1024,
  entityIdLength: 1024,
  urlLength: 2048,
  certificateLength: 16 * 1024,
  certificates: 10,
} as const;

export type CertificateResult = { ok: true; pem: string } | { ok: false; message: string };
export type IdpMetadataResult = { ok: true; config: SamlIdpConfig } | { ok: false; message: string };

const PEM_BEGIN = '-----BEGIN CERTIFICATE-----';
const PEM_END = '-----END CERTIFICATE-----';
const HTTP_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An X.509 certificate given as PEM or as its bare base64 body (as metadata and most IdP consoles
 * show it), checked by parsing it, returned as PEM. Expiry is not checked: IdPs keep signing with
 * an expired certificate and the signature check does not look at dates (docs/sso-saml.md).
 */
export function normalizeCertificate(text: string): CertificateResult {
  if (text.length > SAML_IDP_LIMITS.certificateLength) return { ok: false, message: `must be at most ${SAML_IDP_LIMITS.certificateLength} characters` };
  let body = text.trim();
  const begin = body.indexOf(PEM_BEGIN);
  if (begin >= 0) {
    const end = body.indexOf(PEM_END, begin);
    if (end < 0) return { ok: false, message: 'must be an X.509 certificate (PEM or base64): the PEM end line is missing' };
    body = body.slice(begin + PEM_BEGIN.length, end);
  }
  body = body.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return { ok: false, message: 'must be an X.509 certificate (PEM or base64)' };
  try {
    return { ok: true, pem: new X509Certificate(Buffer.from(body, 'base64')).toString() };
  } catch {
    return { ok: false, message: 'must be an X.509 certificate (PEM or base64): it does not parse' };
  }
}

/** The IdP's sign-in URL: https, or http on a loopback host only (a test IdP on the same machine). */
export function checkSsoUrl(text: string): string | null {
  if (text.length > SAML_IDP_LIMITS.urlLength) return `must be at most ${SAML_IDP_LIMITS.urlLength} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'must be an https URL';
}

const childElements = (parent: Element, ns: string, localName: string): Element[] =>
  Array.from(parent.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === localName);

/** The one EntityDescriptor with an IdP role: the root, or the only such child of an EntitiesDescriptor. */
function idpEntityOf(root: Element): Element | string {
  if (root.namespaceURI === SAML_NS.metadata && root.localName === 'EntityDescriptor') return root;
  if (root.namespaceURI === SAML_NS.metadata && root.localName === 'EntitiesDescriptor') {
    const idps = childElements(root, SAML_NS.metadata, 'EntityDescriptor').filter((e) => childElements(e, SAML_NS.metadata, 'IDPSSODescriptor').length > 0);
    if (idps.length === 1) return idps[0];
    return idps.length === 0 ? 'has no EntityDescriptor with an IDPSSODescriptor' : 'describes several identity providers: paste the metadata of one';
  }
  return 'must be SAML 2.0 metadata (an md:EntityDescriptor)';
}

/**
 * Reads an IdP's SAML 2.0 metadata (as its console exports it) into a config: the entity id, the
 * HTTP-Redirect SingleSignOnService location and every signing certificate. Only the DOM is used,
 * never a regular expression over the XML. The metadata's own signature is not checked: an
 * administrator pasted it, which is the trust decision (docs/sso-saml.md).
 */
export function parseIdpMetadata(xml: string): IdpMetadataResult {
  if (Buffer.byteLength(xml, 'utf8') > SAML_IDP_LIMITS.metadataBytes)
    return { ok: false, message: `must be at most ${SAML_IDP_LIMITS.metadataBytes / 1024} KB` };
  const doc = parseXmlDocument(xml);
  if (!doc.ok) return { ok: false, message: `must be SAML 2.0 metadata XML: ${doc.message}` };
  const entity = idpEntityOf(doc.root);
  if (typeof entity === 'string') return { ok: false, message: entity };
  const entityId = entity.getAttribute('entityID') ?? '';
  if (!entityId || entityId.length > SAML_IDP_LIMITS.entityIdLength) return { ok: false, message: 'has no usable entityID' };
  const [idp] = childElements(entity, SAML_NS.metadata, 'IDPSSODescriptor');
  if (!idp) return { ok: false, message: 'has no IDPSSODescriptor' };
  if (!(idp.getAttribute('protocolSupportEnumeration') ?? '').split(' ').includes(SAML_NS.protocol)) {
    return { ok: false, message: 'the IDPSSODescriptor does not support SAML 2.0' };
  }
  const redirect = childElements(idp, SAML_NS.metadata, 'SingleSignOnService').find((s) => s.getAttribute('Binding') === HTTP_REDIRECT);
  if (!redirect) return { ok: false, message: 'has no SingleSignOnService with the HTTP-Redirect binding' };
  const ssoUrl = redirect.getAttribute('Location') ?? '';
  const urlProblem = checkSsoUrl(ssoUrl);
  if (urlProblem) return { ok: false, message: `SingleSignOnService Location ${urlProblem}` };
  const certificates: string[] = [];
  for (const key of childElements(idp, SAML_NS.metadata, 'KeyDescriptor')) {
    const use = key.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const x509 of Array.from(key.getElementsByTagNameNS(SAML_NS.dsig, 'X509Certificate'))) {
      const cert = normalizeCertificate(x509.textContent ?? '');
      if (!cert.ok) return { ok: false, message: `a signing certificate ${cert.message}` };
      if (!certificates.includes(cert.pem)) certificates.push(cert.pem);
    }
  }
  if (certificates.length === 0) return { ok: false, message: 'has no signing certificate (KeyDescriptor X509Certificate)' };
  if (certificates.length > SAML_IDP_LIMITS.certificates) return { ok: false, message: `has more than ${SAML_IDP_LIMITS.certificates} signing certificates` };
  return { ok: true, config: { entityId, ssoUrl, certificates } };
}

/**
 * The SAML fields of `PUT /api/sso` (docs/sso-saml.md): either `idp_metadata_xml`, or the three
 * fields `idp_entity_id`, `idp_sso_url`, `idp_certificate`. Spread into the settings route's
 * object beside `domains`, `default_role`, `require_sso`, then `.transform(withSamlIdpConfig)`.
 */
export const samlIdpFormShape = {
  type: z.literal('saml'),
  idp_metadata_xml: z.string().optional(),
  idp_entity_id: z.string().trim().min(1, 'must not be empty').max(SAML_IDP_LIMITS.entityIdLength).optional(),
  idp_sso_url: z.string().trim().optional(),
  idp_certificate: z.string().optional(),
};

export type SamlIdpForm = z.infer<z.ZodObject<typeof samlIdpFormShape>>;

/**
 * The zod transform from either SAML form to `idp`, a normalized `SamlIdpConfig`; problems become
 * issues on the field at fault (`idp_metadata_xml: must be at most 256 KB`).
 */
export function withSamlIdpConfig<T extends SamlIdpForm>(form: T, ctx: z.RefinementCtx): T & { idp: SamlIdpConfig } {
  const fail = (path: keyof SamlIdpForm, message: string) => {
    ctx.addIssue({ code: 'custom', path: [path], message });
    return z.NEVER;
  };
  const fieldsGiven = ['idp_entity_id', 'idp_sso_url', 'idp_certificate'] as const;
  if (form.idp_metadata_xml !== undefined) {
    const extra = fieldsGiven.find((f) => form[f] !== undefined);
    if (extra) return fail(extra, 'give either idp_metadata_xml or idp_entity_id, idp_sso_url and idp_certificate, not both');
    const parsed = parseIdpMetadata(form.idp_metadata_xml);
    return parsed.ok ? { ...form, idp: parsed.config } : fail('idp_metadata_xml', parsed.message);
  }
  if (fieldsGiven.every((f) => form[f] === undefined)) {
    return fail('idp_metadata_xml', 'is required, or else idp_entity_id, idp_sso_url and idp_certificate');
  }
  const missing = fieldsGiven.find((f) => form[f] === undefined);
  if (missing) return fail(missing, 'is required (or give idp_metadata_xml instead)');
  const urlProblem = checkSsoUrl(form.idp_sso_url!);
  if (urlProblem) return fail('idp_sso_url', urlProblem);
  const cert = normalizeCertificate(form.idp_certificate!);
  if (!cert.ok) return fail('idp_certificate', cert.message);
  return { ...form, idp: { entityId: form.idp_entity_id!, ssoUrl: form.idp_sso_url!, certificates: [cert.pem] } };
}

/** The SAML settings on their own: either form in, `{...form, idp}` out. */
export const samlIdpSettingsSchema = z.object(samlIdpFormShape).transform(withSamlIdpConfig);

/** A stored config read back (from the settings table's JSON): checked again, never trusted blindly. */
export const samlIdpConfigSchema = z.object({
  entityId: z.string().min(1).max(SAML_IDP_LIMITS.entityIdLength),
  ssoUrl: z.string().refine((u) => checkSsoUrl(u) === null, 'must be an https URL'),
  certificates: z.array(z.string().max(SAML_IDP_LIMITS.certificateLength)).min(1).max(SAML_IDP_LIMITS.certificates),
});
