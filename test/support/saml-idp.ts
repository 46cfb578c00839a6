import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SignedXml } from 'xml-crypto';
import type { SamlIdpConfig } from '../../src/services/sso/saml';

/**
 * A test identity provider: an RSA key and self-signed certificate, SAML Responses from XML
 * templates with every field the service provider checks configurable, and signatures made with
 * xml-crypto as a real IdP makes them (exclusive c14n, enveloped, rsa-sha256). Signing is the
 * IdP's side; Klaxon itself never runs XML signature code of its own.
 */
export interface TestIdp {
  entityId: string;
  ssoUrl: string;
  key: string;
  cert: string;
  config: SamlIdpConfig;
}

/**
 * The openssl CLI issues the certificate (as src/integrations/testing/tls-cert.ts does: node:crypto cannot
 * issue X.509 certificates), into a temp dir removed at once: no key is ever committed.
 */
export function makeTestIdp(entityId = 'https://idp.example.test/saml/metadata'): TestIdp {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-saml-idp-'));
  try {
    const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=test-idp'], {
      stdio: 'pipe',
    });
    const [key, cert] = [readFileSync(keyFile, 'utf8'), readFileSync(certFile, 'utf8')];
    const ssoUrl = 'https://idp.example.test/saml/sso';
    return { entityId, ssoUrl, key, cert, config: { entityId, ssoUrl, certificates: [cert] } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The certificate's base64 body, as metadata carries it. */
export const certBody = (pem: string) => pem.replace('-----BEGIN CERTIFICATE-----', '').replace('-----END CERTIFICATE-----', '').replace(/\s+/g, '');

/** The IdP's metadata, as its console would export it. */
export function idpMetadataXml(idp: TestIdp): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${idp.entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certBody(idp.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.example.test/saml/sso/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${idp.ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

/** Every field of a response the SP checks; null leaves the attribute out. */
export interface ResponseFields {
  issuer: string;
  audience: string;
  /** SubjectConfirmationData Recipient. */
  recipient: string | null;
  /** Response Destination. */
  destination: string | null;
  /** Response InResponseTo. */
  inResponseTo: string | null;
  /** SubjectConfirmationData InResponseTo (defaults to the Response's). */
  subjectInResponseTo?: string | null;
  notBefore: Date;
  notOnOrAfter: Date;
  /** Inserted as is: the text of NameID (may hold markup, e.g. a comment). */
  nameId: string;
  nameIdFormat: string;
  assertionId: string;
  responseId: string;
  /** Attribute name to its value, or values (a multi-valued attribute such as groups). */
  attributes: Record<string, string | string[]>;
  /** The AuthnStatement's AuthnInstant: when the IdP authenticated the person (default: when the assertion was issued). */
  authnInstant?: Date;
}

export const newId = () => `_${randomBytes(16).toString('hex')}`;

/** A response valid for `sp` right now, answering `inResponseTo`, with `over` changed. */
export function responseFields(
  sp: { entityId: string; acsUrl: string },
  idp: TestIdp,
  inResponseTo: string | null,
  over: Partial<ResponseFields> = {},
): ResponseFields {
  const now = Date.now();
  return {
    issuer: idp.entityId,
    audience: sp.entityId,
    recipient: sp.acsUrl,
    destination: sp.acsUrl,
    inResponseTo,
    notBefore: new Date(now - 5_000),
    notOnOrAfter: new Date(now + 5 * 60_000),
    nameId: 'alice@example.com',
    nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    assertionId: newId(),
    responseId: newId(),
    attributes: {},
    ...over,
  };
}

const attr = (name: string, value: string | null | undefined) => (value === null || value === undefined ? '' : ` ${name}="${value}"`);

/** One saml:Assertion element, unsigned. */
export function assertionXml(f: ResponseFields): string {
  const issued = new Date(f.notBefore.getTime() + 5_000).toISOString();
  const subjectInResponseTo = f.subjectInResponseTo === undefined ? f.inResponseTo : f.subjectInResponseTo;
  const attributes = Object.entries(f.attributes)
    .map(([name, values]) => {
      const xml = [values].flat().map((value) => `<saml:AttributeValue>${value}</saml:AttributeValue>`);
      return `<saml:Attribute Name="${name}">${xml.join('')}</saml:Attribute>`;
    })
    .join('');
  return (
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${f.assertionId}" Version="2.0" IssueInstant="${issued}">` +
    `<saml:Issuer>${f.issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${f.nameIdFormat}">${f.nameId}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData` +
    `${attr('InResponseTo', subjectInResponseTo)} NotOnOrAfter="${f.notOnOrAfter.toISOString()}"${attr('Recipient', f.recipient)}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${f.notBefore.toISOString()}" NotOnOrAfter="${f.notOnOrAfter.toISOString()}">` +
    `<saml:AudienceRestriction><saml:Audience>${f.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${f.authnInstant?.toISOString() ?? issued}" SessionIndex="${f.assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    `</saml:Assertion>`
  );
}

/** A samlp:Response around `inner` (usually one assertion; wrapping attacks put more). */
export function responseXml(f: ResponseFields, inner: string): string {
  const issued = new Date(f.notBefore.getTime() + 5_000).toISOString();
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${f.responseId}" Version="2.0" IssueInstant="${issued}"` +
    `${attr('Destination', f.destination)}${attr('InResponseTo', f.inResponseTo)}>` +
    `<saml:Issuer>${f.issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    inner +
    `</samlp:Response>`
  );
}

/** Signs the element `xpath` selects, the signature placed right after its Issuer (as SAML's schema orders it). */
function sign(xml: string, idp: Pick<TestIdp, 'key' | 'cert'>, xpath: string): string {
  const sig = new SignedXml({
    privateKey: idp.key,
    publicCert: idp.cert,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  sig.addReference({
    xpath,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { location: { reference: `${xpath}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

/** Signs the (first) Assertion of `xml`, which may be a Response or an Assertion alone. */
export const signAssertion = (xml: string, idp: Pick<TestIdp, 'key' | 'cert'>) => sign(xml, idp, "//*[local-name(.)='Assertion']");
/** Signs the Response (the root). */
export const signResponse = (xml: string, idp: Pick<TestIdp, 'key' | 'cert'>) => sign(xml, idp, "/*[local-name(.)='Response']");

export const base64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
