import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { domainsOf, ssoBody, emptySsoForm } from './sso-form';
import { SsoPage } from './SsoPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const STORED = {
  type: 'oidc',
  issuer: 'https://login.acme.com',
  client_id: 'klaxon',
  client_secret_set: true,
  domains: [{ domain: 'acme.com', verified: true, txt_record: 'klaxon-verification=tok-acme' }],
  default_role: 'MEMBER',
  require_sso: false,
  updated_at: '2026-11-30T10:00:00.000Z',
};

describe('SsoPage', () => {
  it('when settings are stored, then the form shows them, the secret stays empty, and a test sends the typed settings without saving', async () => {
    const { calls } = fakeApi({ 'GET /sso': ok(STORED), 'POST /sso/test': ok({ issuer: 'https://login.acme.com' }) });
    renderWithApp(<SsoPage />);
    expect(((await screen.findByLabelText(/^Issuer/)) as HTMLInputElement).value).toBe('https://login.acme.com');
    expect((screen.getByLabelText(/^Client secret/) as HTMLInputElement).value).toBe('');
    expect(screen.getByPlaceholderText('stored: leave empty to keep it')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Email domains/), { target: { value: 'acme.com, Acme.org' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test the connection' }));
    expect(await screen.findByText(/The identity provider answered/)).toBeTruthy();
    expect(calls('POST /sso/test')[0]).toEqual({
      type: 'oidc',
      issuer: 'https://login.acme.com',
      client_id: 'klaxon',
      domains: ['acme.com', 'acme.org'],
      default_role: 'MEMBER',
      require_sso: false,
    });
    expect(calls('PUT /sso')).toHaveLength(0);
  });

  it('when the save is refused with a named field, then the message shows at that field', async () => {
    fakeApi({
      'GET /sso': refused(404, 'not_found', 'single sign-on is not set up'),
      'PUT /sso': refused(400, 'invalid_request', 'issuer: must be an https:// URL'),
    });
    renderWithApp(<SsoPage />);
    fireEvent.change(await screen.findByLabelText(/^Issuer/), { target: { value: 'http://login.acme.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('issuer: must be an https:// URL')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn off single sign-on' })).toBeNull();
  });

  it('when the plan has no single sign-on, then the page says so instead of a form', async () => {
    fakeApi({ 'GET /sso': refused(403, 'plan_limit_reached', 'the PRO plan does not include single sign-on (BUSINESS does)') });
    renderWithApp(<SsoPage />);
    expect(await screen.findByText(/BUSINESS does/)).toBeTruthy();
    await waitFor(() => expect(screen.queryByLabelText(/^Issuer/)).toBeNull());
  });

  it('when domains are typed with commas, spaces and capitals, then the body has each once in lower case', () => {
    expect(domainsOf(' Acme.com,acme.org  x.io ,, ACME.COM')).toEqual(['acme.com', 'acme.org', 'x.io']);
    expect(ssoBody({ ...emptySsoForm(), clientSecret: '' })).not.toHaveProperty('client_secret');
  });

  it('when SAML is chosen and the IdP metadata pasted, then the page shows where the IdP sends people back and the test and save send the metadata', async () => {
    const metadata = '<md:EntityDescriptor entityID="https://idp.acme.com"/>';
    const { calls } = fakeApi({
      'GET /auth/session': ok(sessionAs('BILLING_OWNER')),
      'GET /sso': refused(404, 'not_found', 'single sign-on is not set up'),
      'POST /sso/test': ok({ entity_id: 'https://idp.acme.com', sso_url: 'https://idp.acme.com/sso', signing_certificates: 1 }),
      'PUT /sso': ok({
        type: 'saml',
        idp_metadata_xml: metadata,
        domains: [{ domain: 'acme.com', verified: false, txt_record: 'klaxon-verification=tok' }],
        default_role: 'MEMBER',
        require_sso: false,
        updated_at: 'x',
      }),
    });
    renderWithApp(<SsoPage />);
    fireEvent.click(await screen.findByLabelText('SAML 2.0'));
    expect(await screen.findByText(/\/auth\/sso\/saml\/metadata\/00000000-0000-4000-8000-0000000000aa$/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Identity provider metadata/), { target: { value: metadata } });
    fireEvent.change(screen.getByLabelText(/^Email domains/), { target: { value: 'acme.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test the connection' }));
    expect(await screen.findByText('The metadata reads: https://idp.acme.com, signing in at https://idp.acme.com/sso')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('PUT /sso')).toHaveLength(1));
    const sent = { type: 'saml', idp_metadata_xml: metadata, domains: ['acme.com'], default_role: 'MEMBER', require_sso: false };
    expect(calls('POST /sso/test')[0]).toEqual(sent);
    expect(calls('PUT /sso')[0]).toEqual(sent);
  });

  it('when a listed domain is not verified, then its state and TXT record show with a Verify button, and Verify proves it', async () => {
    const unproven = { domain: 'acme.org', verified: false, txt_record: 'klaxon-verification=tok-org' };
    const { calls } = fakeApi({
      'GET /sso': [ok({ ...STORED, domains: [...STORED.domains, unproven] }), ok({ ...STORED, domains: [...STORED.domains, { ...unproven, verified: true }] })],
      'POST /sso/domains/acme.org/verify': ok({ domain: 'acme.org', verified: true }),
    });
    renderWithApp(<SsoPage />);
    expect((await screen.findByLabelText('TXT record for acme.org')).textContent).toBe('klaxon-verification=tok-org');
    expect(screen.getByLabelText('TXT record for acme.com').textContent).toBe('klaxon-verification=tok-acme');
    expect(screen.getAllByText('Verified')).toHaveLength(1);
    expect(screen.getByText('Not verified')).toBeTruthy();
    // The proven one has nothing left to do.
    expect(screen.queryByRole('button', { name: 'Verify acme.com' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Verify acme.org' }));
    expect(await screen.findByText(/acme\.org is verified/)).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('Verified')).toHaveLength(2));
    expect(calls('POST /sso/domains/acme.org/verify')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Verify acme.org' })).toBeNull();
  });

  it('when the TXT record is not found, then the refusal naming the record shows and the domain stays unverified', async () => {
    const unproven = { domain: 'acme.org', verified: false, txt_record: 'klaxon-verification=tok-org' };
    fakeApi({
      'GET /sso': ok({ ...STORED, domains: [unproven] }),
      'POST /sso/domains/acme.org/verify': refused(
        409,
        'domain_unverified',
        'domain: no TXT record "klaxon-verification=tok-org" at acme.org yet: publish it at your DNS provider, wait until it is visible, then verify again',
      ),
    });
    renderWithApp(<SsoPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Verify acme.org' }));
    expect(await screen.findByText(/no TXT record "klaxon-verification=tok-org" at acme\.org yet/)).toBeTruthy();
    expect(screen.getByText('Not verified')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Verify acme.org' })).toBeTruthy();
  });
});
