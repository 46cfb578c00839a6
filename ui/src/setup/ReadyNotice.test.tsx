import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReadyNotice } from './ReadyNotice';
import { fakeApi, ok } from '../test/fake-api';
import { renderWithApp } from '../test/render';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const team = { id: '00000000-0000-4000-8000-0000000000d1', name: 'Acme', member_count: 1, service_count: 1, created_at: '2026-11-02T08:00:00.000Z' };
const service = {
  id: '00000000-0000-4000-8000-0000000000e1',
  name: 'Default service',
  owning_team_id: team.id,
  escalation_policy_id: '00000000-0000-4000-8000-0000000000f1',
  description: null,
};
const policy = {
  id: service.escalation_policy_id,
  name: 'Default',
  repeat: 2,
  ack_timeout_seconds: null,
  service_ids: [service.id],
  steps: [{ delay_seconds: 300, targets: [{ type: 'team', id: team.id }] }],
};
const webhooksAnswer = (webhooks: unknown[]) => ({ status: 200, body: { success: true, webhooks, total: webhooks.length } });

describe('ReadyNotice on the Set up page', () => {
  it('when a new workspace has its ready service and no webhook yet, then it says who the first alert pages and what to do next', async () => {
    fakeApi({ 'GET /services': ok([service]), 'GET /teams': ok([team]), 'GET /escalation-policies': ok([policy]), 'GET /webhooks': webhooksAnswer([]) });
    renderWithApp(<ReadyNotice />);
    const notice = await screen.findByRole('status', { name: 'Your workspace is ready to page' });
    expect(notice.textContent).toContain(
      'Alerts on Default service page the team Acme (1 person) through the escalation policy “Default”: at once, again every 5 min (2 more times) until someone acknowledges.',
    );
    expect(notice.textContent).toContain('create a webhook below');
    // The same words as the webhook form: its channels limit these rules, they do not replace them.
    expect(notice.textContent).toContain('Each person is reached by their own notification rules');
    expect(notice.textContent).toContain('Its “Notify by” limits which of these rules apply; every channel is checked at first.');
  });

  it('when the workspace already has a webhook, then it says nothing', async () => {
    const api = fakeApi({
      'GET /services': ok([service]),
      'GET /teams': ok([team]),
      'GET /escalation-policies': ok([policy]),
      'GET /webhooks': webhooksAnswer([{ id: 'w1', name: 'Prod', status: 'ACTIVE', webhook_url: null, notification_types: ['EMAIL'] }]),
    });
    renderWithApp(<ReadyNotice />);
    await vi.waitFor(() => expect(api.calls('GET /webhooks')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('status', { name: 'Your workspace is ready to page' })).toBeNull();
  });
});
