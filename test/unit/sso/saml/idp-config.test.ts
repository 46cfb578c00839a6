import { X509Certificate } from 'node:crypto';
import { parseIdpMetadata, samlIdpConfigSchema, samlIdpSettingsSchema } from '../../../../src/services/sso/saml';
import { certBody, idpMetadataXml, makeTestIdp, type TestIdp } from '../../../support/saml-idp';

/** Both SAML settings forms become one normalized IdP config; bad input names its field. */
let idp: TestIdp;
let second: TestIdp;
beforeAll(() => {
  idp = makeTestIdp();
  second = makeTestIdp();
});

const settings = (body: Record<string, unknown>) => samlIdpSettingsSchema.safeParse({ type: 'saml', ...body });
/** The one issue's field and message, as the settings route would print it. */
const issueOf = (body: Record<string, unknown>) => {
  const parsed = settings(body);
  expect(parsed.success).toBe(false);
  const [issue] = parsed.error!.issues;
  return `${issue.path.join('.')}: ${issue.message}`;
};
const withoutKeys = (xml: string) =>
  xml.slice(0, xml.indexOf('<md:KeyDescriptor')) + xml.slice(xml.lastIndexOf('</md:KeyDescriptor>') + '</md:KeyDescriptor>'.length);
const sameCert = (a: string, b: string) => new X509Certificate(a).fingerprint256 === new X509Certificate(b).fingerprint256;

describe('SAML IdP settings: metadata', () => {
  it('when valid IdP metadata is given, then the config has its entity id, HTTP-Redirect SSO URL and signing certificate', () => {
    const parsed = settings({ idp_metadata_xml: idpMetadataXml(idp) });
    expect(parsed.success).toBe(true);
    const config = parsed.data!.idp;
    expect(config).toMatchObject({ entityId: idp.entityId, ssoUrl: idp.ssoUrl });
    expect(config.certificates).toHaveLength(1);
    expect(sameCert(config.certificates[0], idp.cert)).toBe(true);
    expect(samlIdpConfigSchema.parse(config)).toEqual(config);
  });

  it('when the metadata lists two signing keys (a rollover) inside an EntitiesDescriptor, then both are trusted', () => {
    const withTwo = idpMetadataXml(idp).replace(
      '</md:KeyDescriptor>',
      `</md:KeyDescriptor><md:KeyDescriptor><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certBody(second.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
        `<md:KeyDescriptor use="encryption"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>not-a-signing-key</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    );
    const wrapped = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${withTwo.replace('<?xml version="1.0" encoding="UTF-8"?>', '')}</md:EntitiesDescriptor>`;
    const result = parseIdpMetadata(wrapped);
    expect(result.ok && result.config.certificates.length).toBe(2);
  });

  it.each([
    [
      'over 256 KB',
      () => idpMetadataXml(idp).replace('<md:IDPSSODescriptor', `<!--${'x'.repeat(256 * 1024)}--><md:IDPSSODescriptor`),
      'must be at most 256 KB',
    ],
    ['garbage', () => 'this is not XML <<<', 'must be SAML 2.0 metadata XML: it does not parse as XML'],
    ['empty', () => '', 'must be SAML 2.0 metadata XML: it does not parse as XML'],
    ['XML of another kind', () => '<html><body>login</body></html>', 'must be SAML 2.0 metadata (an md:EntityDescriptor)'],
    [
      'with a DOCTYPE',
      () => `<!DOCTYPE md [<!ENTITY x "y">]>${idpMetadataXml(idp).replace('<?xml version="1.0" encoding="UTF-8"?>', '')}`,
      'must be SAML 2.0 metadata XML: a DOCTYPE is not allowed',
    ],
    ['without a signing certificate', () => withoutKeys(idpMetadataXml(idp)), 'has no signing certificate'],
    [
      'without an HTTP-Redirect endpoint',
      () => idpMetadataXml(idp).replace('bindings:HTTP-Redirect', 'bindings:SOAP'),
      'has no SingleSignOnService with the HTTP-Redirect binding',
    ],
    [
      'with a plain-http SSO URL',
      () => idpMetadataXml(idp).replace(`Location="${idp.ssoUrl}"`, 'Location="http://idp.example.test/sso"'),
      'SingleSignOnService Location must be an https URL',
    ],
    ['with a broken certificate', () => idpMetadataXml(idp).replace(certBody(idp.cert), 'AAAA'), 'a signing certificate must be an X.509 certificate'],
  ])('when the metadata is %s, then the error names idp_metadata_xml and says why', (_name, xml, message) => {
    expect(issueOf({ idp_metadata_xml: xml() })).toContain(`idp_metadata_xml: ${message}`);
  });
});

describe('SAML IdP settings: the three fields', () => {
  const fields = () => ({ idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.cert });

  it('when entity id, SSO URL and a PEM or bare base64 certificate are given, then the config holds them, the certificate as PEM', () => {
    for (const certificate of [idp.cert, certBody(idp.cert)]) {
      const parsed = settings({ ...fields(), idp_certificate: certificate });
      expect(parsed.success).toBe(true);
      expect(parsed.data!.idp).toMatchObject({ entityId: idp.entityId, ssoUrl: idp.ssoUrl });
      expect(parsed.data!.idp.certificates[0]).toContain('-----BEGIN CERTIFICATE-----');
      expect(sameCert(parsed.data!.idp.certificates[0], idp.cert)).toBe(true);
    }
  });

  it.each([
    ['nothing', {}, 'idp_metadata_xml: is required'],
    ['no certificate', { idp_certificate: undefined }, 'idp_certificate: is required'],
    ['a certificate that is not one', { idp_certificate: 'hello' }, 'idp_certificate: must be an X.509 certificate'],
    [
      'a private key instead',
      { idp_certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----' },
      'idp_certificate: must be an X.509 certificate',
    ],
    ['an http SSO URL', { idp_sso_url: 'http://idp.example.test/sso' }, 'idp_sso_url: must be an https URL'],
    ['an SSO URL that is no URL', { idp_sso_url: 'idp.example.test' }, 'idp_sso_url: must be an absolute URL'],
    ['metadata as well', { idp_metadata_xml: '<x/>' }, 'idp_entity_id: give either idp_metadata_xml'],
  ])('when given %s, then the error names the field', (_name, over, message) => {
    const body = _name === 'nothing' ? {} : { ...fields(), ...over };
    expect(issueOf(body)).toContain(message);
  });

  it('when the IdP runs on this machine over http (a test IdP), then its loopback SSO URL is accepted', () => {
    expect(settings({ ...fields(), idp_sso_url: 'http://127.0.0.1:8080/sso' }).success).toBe(true);
  });
});
