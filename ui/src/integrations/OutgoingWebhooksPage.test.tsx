import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { INCIDENT_EVENT_TYPES } from './outgoing-webhooks';
import { OutgoingWebhooksPage } from './OutgoingWebhooksPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SECRET = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldCE=';
const hook = {
  id: '6a1f0000-0000-4000-8000-000000000001',
  url: 'https://hooks.example.test/klaxon',
  description: 'our bus',
  event_types: [...INCIDENT_EVENT_TYPES],
  service_ids: [],
  enabled: true,
  created_at: '2026-12-05T09:00:00.000Z',
};
const ping = {
  id: 'd0000000-0000-4000-8000-000000000001',
  event_id: 'e0000000-0000-4000-8000-000000000001',
  type: 'ping',
  attempts: 0,
  last_status_code: null,
  last_error: null,
  latency_ms: null,
  delivered_at: null,
  next_attempt_at: '2026-12-05T09:00:01.000Z',
};
const delivered = {
  ...ping,
  id: 'd0000000-0000-4000-8000-000000000002',
  event_id: 'e0000000-0000-4000-8000-000000000002',
  type: 'incident.triggered',
  attempts: 1,
  last_status_code: 200,
  latency_ms: 42,
  delivered_at: '2026-12-05T09:00:02.000Z',
  next_attempt_at: null,
};
const SERVICES = ok([{ id: 's1', name: 'Payments API' }]);
const session = (role: Parameters<typeof sessionAs>[0], plan = 'PRO') => ok({ ...sessionAs(role), organization: { id: 'o1', name: 'Acme', plan } });

describe('OutgoingWebhooksPage', () => {
  it('when an admin creates a subscription, then the secret is shown once with a copy button, and it is listed', async () => {
    const api = fakeApi({
      'GET /auth/session': session('ACCOUNT_ADMIN'),
      'GET /services': SERVICES,
      'GET /outgoing-webhooks': [ok([]), ok([hook])],
      'POST /outgoing-webhooks': ok({ ...hook, secret: SECRET }, 'created', 201),
      [`GET /outgoing-webhooks/${hook.id}/deliveries?limit=50`]: ok([]),
    });
    renderWithApp(<OutgoingWebhooksPage />);
    await screen.findByText(/No outgoing webhooks yet/);
    fireEvent.change(screen.getByRole('textbox', { name: /Endpoint URL/ }), { target: { value: ' https://hooks.example.test/klaxon ' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Description' }), { target: { value: 'our bus' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create outgoing webhook' }));

    const shown = await screen.findByRole('dialog', { name: /signing secret/ });
    expect(within(shown).getByText(SECRET)).toBeTruthy();
    expect(within(shown).getByRole('button', { name: 'Copy the signing secret' })).toBeTruthy();
    expect(api.calls('POST /outgoing-webhooks')).toEqual([
      { url: 'https://hooks.example.test/klaxon', description: 'our bus', event_types: null, service_ids: null },
    ]);
    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(document.body.textContent).not.toContain(SECRET));
    expect(await screen.findByRole('article', { name: `Outgoing webhook ${hook.url}` })).toBeTruthy();
    expect(screen.getByText('all events')).toBeTruthy();
    expect(screen.getByText('all services')).toBeTruthy();
  });

  it('when the server refuses the URL, then the message shows next to the field', async () => {
    fakeApi({
      'GET /auth/session': session('BILLING_OWNER'),
      'GET /services': SERVICES,
      'GET /outgoing-webhooks': ok([]),
      'POST /outgoing-webhooks': refused(400, 'invalid_request', 'url: targets a private address (private): outgoing webhooks reach public addresses only'),
    });
    renderWithApp(<OutgoingWebhooksPage />);
    await screen.findByText(/No outgoing webhooks yet/);
    fireEvent.change(screen.getByRole('textbox', { name: /Endpoint URL/ }), { target: { value: 'https://10.0.0.1/' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create outgoing webhook' }));
    expect(await screen.findByText(/targets a private address/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('when "Send test" is pressed, then a ping is queued and the deliveries show with their status; "Redeliver" sends one again', async () => {
    const api = fakeApi({
      'GET /auth/session': session('ACCOUNT_ADMIN'),
      'GET /services': SERVICES,
      'GET /outgoing-webhooks': ok([hook]),
      [`POST /outgoing-webhooks/${hook.id}/test`]: ok(ping, 'queued', 202),
      [`GET /outgoing-webhooks/${hook.id}/deliveries?limit=50`]: ok([ping, delivered]),
      [`POST /outgoing-webhooks/${hook.id}/deliveries/${delivered.id}/redeliver`]: ok(
        { ...delivered, id: 'new', attempts: 0, delivered_at: null },
        'queued',
        202,
      ),
    });
    renderWithApp(<OutgoingWebhooksPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Send test' }));
    const log = await screen.findByRole('table', { name: `Deliveries to ${hook.url}` });
    expect(api.calls(`POST /outgoing-webhooks/${hook.id}/test`)).toHaveLength(1);
    expect(within(log).getByText('pending')).toBeTruthy();
    expect(within(log).getByText('delivered')).toBeTruthy();
    expect(within(log).getByText('42 ms')).toBeTruthy();
    expect(within(log).getByText('200')).toBeTruthy();
    fireEvent.click(within(log).getByRole('button', { name: `Redeliver incident.triggered ${delivered.event_id}` }));
    await waitFor(() => expect(api.calls(`POST /outgoing-webhooks/${hook.id}/deliveries/${delivered.id}/redeliver`)).toHaveLength(1));
  });

  it('when it is disabled, edited or deleted, then the right change is sent', async () => {
    const api = fakeApi({
      'GET /auth/session': session('ACCOUNT_ADMIN'),
      'GET /services': SERVICES,
      'GET /outgoing-webhooks': ok([hook]),
      [`PUT /outgoing-webhooks/${hook.id}`]: (body) => ok({ ...hook, ...(body as object) }),
      [`DELETE /outgoing-webhooks/${hook.id}`]: ok({ id: hook.id, deleted: true }),
    });
    renderWithApp(<OutgoingWebhooksPage />);
    fireEvent.click(await screen.findByRole('switch', { name: `Enabled: ${hook.url}` }));
    await waitFor(() => expect(api.calls(`PUT /outgoing-webhooks/${hook.id}`)).toEqual([{ enabled: false }]));

    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit outgoing webhook' });
    fireEvent.change(within(edit).getByRole('textbox', { name: 'Description' }), { target: { value: 'renamed' } });
    fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls(`PUT /outgoing-webhooks/${hook.id}`)[1]).toEqual({ url: hook.url, description: 'renamed', event_types: null, service_ids: null }),
    );

    fireEvent.click(screen.getByRole('button', { name: `Delete outgoing webhook ${hook.url}` }));
    const confirm = await screen.findByRole('dialog', { name: `Delete outgoing webhook ${hook.url}?` });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(api.fetch.mock.calls.some(([url, init]) => url === `/api/outgoing-webhooks/${hook.id}` && init?.method === 'DELETE')).toBe(true),
    );
  });

  it('when a Member opens the page, then it says who may, and asks the server nothing about subscriptions', async () => {
    const api = fakeApi({ 'GET /auth/session': session('MEMBER') });
    renderWithApp(<OutgoingWebhooksPage />);
    expect(await screen.findByText(/Only Billing Owners, Account Admins and Team Managers/)).toBeTruthy();
    expect(api.calls('GET /outgoing-webhooks')).toHaveLength(0);
  });

  it('when the plan is FREE, then it says so and creating is off', async () => {
    fakeApi({ 'GET /auth/session': session('BILLING_OWNER', 'FREE'), 'GET /services': SERVICES, 'GET /outgoing-webhooks': ok([]) });
    renderWithApp(<OutgoingWebhooksPage />);
    expect(await screen.findByText('Not on the FREE plan')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Create outgoing webhook' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
