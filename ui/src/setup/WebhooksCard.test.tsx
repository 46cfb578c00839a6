import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { NOTIFY_BY_HELP, WebhooksCard } from './WebhooksCard';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const service = { id: '00000000-0000-4000-8000-0000000000e1', name: 'Checkout', owning_team_id: 't1', escalation_policy_id: null, description: null };
const webhooksAnswer = (webhooks: unknown[]) => ({ status: 200, body: { success: true, webhooks, total: webhooks.length } });

describe('WebhooksCard: Notify by', () => {
  it('when a new webhook is made, then every channel is checked at first, the form says the channels limit each person’s rules, and all four are sent', async () => {
    const { calls } = fakeApi({
      'GET /services': ok([service]),
      'GET /webhooks': webhooksAnswer([]),
      'POST /webhooks': ok({ id: 'w1' }, 'webhook created', 201),
    });
    renderWithApp(<WebhooksCard />);
    const group = (await screen.findByRole('group', { name: /Notify by/ })) as HTMLElement;
    for (const name of ['Email', 'SMS', 'Push', 'Voice call']) expect((within(group).getByRole('checkbox', { name }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(NOTIFY_BY_HELP)).toBeTruthy();
    expect(NOTIFY_BY_HELP).toMatch(/^Limits which of each person's notification rules apply/);
    fireEvent.change(screen.getByRole('textbox', { name: 'Webhook name' }), { target: { value: 'Prometheus' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create webhook' }));
    await waitFor(() => expect(calls('POST /webhooks')).toHaveLength(1));
    expect(calls('POST /webhooks')[0]).toEqual({ name: 'Prometheus', notificationTypes: ['EMAIL', 'SMS', 'PUSH_NOTIF', 'CALL'] });
  });

  it('when a channel is unchecked, then the webhook is made without it', async () => {
    const { calls } = fakeApi({ 'GET /services': ok([service]), 'GET /webhooks': webhooksAnswer([]), 'POST /webhooks': ok({ id: 'w1' }, 'ok', 201) });
    renderWithApp(<WebhooksCard />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Voice call' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Webhook name' }), { target: { value: 'Grafana' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create webhook' }));
    await waitFor(() => expect(calls('POST /webhooks')).toHaveLength(1));
    expect(calls('POST /webhooks')[0]).toMatchObject({ notificationTypes: ['EMAIL', 'SMS', 'PUSH_NOTIF'] });
  });
});
