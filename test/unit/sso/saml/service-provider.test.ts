import { DOMParser } from '@xmldom/xmldom';
import { samlAcsUrlOf, samlEntityIdOf, samlServiceProviderMetadata } from '../../../../src/services/sso/saml';

/** The SP metadata a workspace hands its IdP administrator. */
const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';

describe('SAML service provider metadata', () => {
  it('when generated for a workspace, then it names the metadata URL as entity id and the ACS URL with the HTTP-POST binding', () => {
    const orgId = '6f1f3a52-8a57-4c8e-9d0e-3b5d3f2c1a10';
    const xml = samlServiceProviderMetadata({ appUrl: 'https://klaxon.example.test', organizationId: orgId });
    const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement!;
    expect(root.localName).toBe('EntityDescriptor');
    expect(root.namespaceURI).toBe(MD);
    expect(root.getAttribute('entityID')).toBe(`https://klaxon.example.test/auth/sso/saml/metadata/${orgId}`);
    expect(root.getAttribute('entityID')).toBe(samlEntityIdOf('https://klaxon.example.test', orgId));
    const [descriptor] = Array.from(root.getElementsByTagNameNS(MD, 'SPSSODescriptor'));
    expect(descriptor.getAttribute('WantAssertionsSigned')).toBe('true');
    const [acs] = Array.from(descriptor.getElementsByTagNameNS(MD, 'AssertionConsumerService'));
    expect(acs.getAttribute('Location')).toBe('https://klaxon.example.test/auth/sso/saml/acs');
    expect(acs.getAttribute('Location')).toBe(samlAcsUrlOf('https://klaxon.example.test'));
    expect(acs.getAttribute('Binding')).toBe('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    expect(descriptor.getElementsByTagNameNS(MD, 'NameIDFormat')[0].textContent).toBe('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
  });
});
