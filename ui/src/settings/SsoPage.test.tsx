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
  domains: ['acme.com'],
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
      'PUT /sso': ok({ type: 'saml', idp_metadata_xml: metadata, domains: ['acme.com'], default_role: 'MEMBER', require_sso: false, updated_at: 'x' }),
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
});
