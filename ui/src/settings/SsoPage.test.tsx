import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { domainsOf, emptySsoForm, fieldPart, ssoBody } from './sso-form';
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

  it('when the plan has no single sign-on, then the page keeps its title and explains in plain words which plan has it, instead of a form or a raw message', async () => {
    fakeApi({
      'GET /auth/session': ok({ ...sessionAs('BILLING_OWNER'), organization: { ...sessionAs('BILLING_OWNER').organization, plan: 'FREE' } }),
      'GET /sso': refused(403, 'plan_limit_reached', 'the FREE plan does not include single sign-on (BUSINESS does)'),
      'GET /sso/scim-token': ok({ configured: false, prefix: null, created_at: null }),
    });
    renderWithApp(<SsoPage />);
    expect(await screen.findByRole('heading', { name: 'Single sign-on' })).toBeTruthy();
    expect(await screen.findByText('Single sign-on comes with the Business plan')).toBeTruthy();
    expect(await screen.findByText(/This workspace is on the Free plan\. On Business, people sign in through your company/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See your plan and what it uses' }).getAttribute('href')).toBe('/members');
    expect(screen.queryByText(/BUSINESS does/)).toBeNull();
    expect(screen.queryByLabelText(/^Issuer/)).toBeNull();
    // No SCIM token to create on this plan, and none left to revoke.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'SCIM provisioning' })).toBeNull());
  });

  it('when the plan has no SCIM but a token is left from a paid plan, then it can still be revoked (and none created)', async () => {
    fakeApi({
      'GET /sso': refused(403, 'plan_limit_reached', 'the PRO plan does not include single sign-on (BUSINESS does)'),
      'GET /sso/scim-token': ok({ configured: true, prefix: 'klxscim_Ab3x', created_at: '2026-11-30T10:00:00.000Z' }),
    });
    renderWithApp(<SsoPage />);
    const card = await screen.findByRole('region', { name: 'SCIM provisioning' });
    expect(await within(card).findByRole('button', { name: 'Revoke the SCIM token' })).toBeTruthy();
    expect(within(card).queryByRole('button', { name: /Create/ })).toBeNull();
  });

  it('when "Test the connection" is refused with named fields, then the message shows at that field and no "Test failed" banner', async () => {
    fakeApi({
      'GET /sso': refused(404, 'not_found', 'single sign-on is not set up'),
      'GET /sso/scim-token': ok({ configured: false, prefix: null, created_at: null }),
      'POST /sso/test': refused(400, 'invalid_request', 'client_secret: is required (none is stored yet)'),
    });
    renderWithApp(<SsoPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Test the connection' }));
    const message = await screen.findByText('client_secret: is required (none is stored yet)');
    // At the field: the input's own wrapper holds the message.
    const field = (el: Element) => el.closest('.mantine-PasswordInput-root');
    expect(field(message)).not.toBeNull();
    expect(field(message)).toBe(field(screen.getByLabelText(/^Client secret/)));
    expect(screen.queryByText(/Test failed/)).toBeNull();
  });

  it('when the identity provider fails the test, then the reason shows above the buttons', async () => {
    fakeApi({
      'GET /sso': ok(STORED),
      'GET /sso/scim-token': ok({ configured: false, prefix: null, created_at: null }),
      'POST /sso/test': refused(401, 'sso_failed', 'single sign-on failed: discovery at the issuer did not work (DNS lookup failed)'),
    });
    renderWithApp(<SsoPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Test the connection' }));
    expect(await screen.findByText(/Test failed: single sign-on failed: discovery/)).toBeTruthy();
  });

  it('when a SCIM token is created, then a step-up is asked, the token is shown once, then only its prefix; revoking asks first and removes it', async () => {
    const TOKEN = 'klxscim_Ab3xSECRETsecretSECRETsecretSECRETsecret1';
    const api = fakeApi({
      'GET /sso': ok(STORED),
      'GET /auth/2fa': ok({ enabled: false, enabled_at: null, recovery_codes_left: 0 }),
      'GET /sso/scim-token': [
        ok({ configured: false, prefix: null, created_at: null }),
        ok({ configured: true, prefix: 'klxscim_Ab3x', created_at: '2026-11-30T10:00:00.000Z' }),
        ok({ configured: false, prefix: null, created_at: null }),
      ],
      'POST /sso/scim-token': [
        refused(403, 'step_up_required', 'confirm it is you first'),
        ok({ token: TOKEN, created_at: '2026-11-30T10:00:00.000Z' }, 'copy the token into your identity provider now', 201),
      ],
      'POST /auth/step-up': ok({ stepped_up_at: '', fresh_until: '' }),
      'DELETE /sso/scim-token': ok({ revoked: true }),
    });
    renderWithApp(<SsoPage />);
    const card = await screen.findByRole('region', { name: 'SCIM provisioning' });
    expect(await within(card).findByText(/No SCIM token yet/)).toBeTruthy();
    expect(within(card).getByText(/\/scim\/v2$/)).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Create a SCIM token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'correct horse battery' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const shown = await screen.findByRole('dialog', { name: 'Your SCIM token' });
    expect(within(shown).getByText(TOKEN)).toBeTruthy();
    expect(within(shown).getByText(/will not be shown again/)).toBeTruthy();
    expect(api.calls('POST /sso/scim-token')).toHaveLength(2);
    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(document.body.textContent).not.toContain(TOKEN));
    expect(await within(card).findByText('klxscim_Ab3x')).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Revoke the SCIM token' }));
    const ask = await screen.findByRole('dialog', { name: 'Revoke the SCIM token?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Revoke' }));
    expect(await within(card).findByText(/No SCIM token yet/)).toBeTruthy();
    expect(api.calls('DELETE /sso/scim-token')).toHaveLength(1);
  });

  it('when a refusal names several fields, then each field gets its own part', () => {
    const message = 'issuer: must be an https:// URL; client_id: is required; domains.1: must be a domain name such as example.com';
    expect(fieldPart(message, 'issuer')).toBe('issuer: must be an https:// URL');
    expect(fieldPart(message, 'client_id')).toBe('client_id: is required');
    expect(fieldPart(message, 'domains')).toBe('domains.1: must be a domain name such as example.com');
    expect(fieldPart(message, 'client_secret')).toBeUndefined();
    expect(fieldPart(undefined, 'issuer')).toBeUndefined();
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
