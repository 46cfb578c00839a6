import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { ReadinessPage } from './ReadinessPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ME = '00000000-0000-4000-8000-000000000001';
const BOB = '22222222-2222-4222-8222-222222222222';
const NIGHTS = '33333333-3333-4333-8333-333333333333';
const POLICY = '44444444-4444-4444-8444-444444444444';
const gap = (over: object) => ({ from: '2026-11-30T18:00:00.000Z', to: '2026-12-01T06:00:00.000Z', ...over });

describe('ReadinessPage', () => {
  it('when there are gaps, then each shows what, when and why, with a link to where it is fixed', async () => {
    fakeApi({
      'GET /auth/session': ok(sessionAs('MEMBER')),
      'GET /readiness': ok({
        from: '2026-11-28T10:00:00.000Z',
        to: '2026-12-12T10:00:00.000Z',
        gaps: [
          gap({
            kind: 'no_working_contact',
            user_id: BOB,
            schedule_id: NIGHTS,
            detail: 'Bob is on call on "Nights" and has no verified, working contact method',
          }),
          gap({
            kind: 'rules_too_slow',
            user_id: ME,
            schedule_id: NIGHTS,
            detail: 'Ada is on call on "Nights" and is first paged 10 min after their step (more than 5 min)',
          }),
          gap({ kind: 'schedule_gap', schedule_id: NIGHTS, detail: 'nobody is on call on "Nights"' }),
          gap({ kind: 'step_resolves_to_nobody', policy_id: POLICY, detail: 'step 1 of "Checkout" pages nobody: schedule "Nights" has nobody on call' }),
        ],
      }),
    });
    renderWithApp(<ReadinessPage />);

    const bob = await screen.findByRole('row', { name: /^Bob is on call/ });
    expect(within(bob).getByText('Cannot be reached')).toBeTruthy();
    expect(within(bob).getByRole('link').getAttribute('href')).toBe(`/schedules/${NIGHTS}`);
    const mine = screen.getByRole('row', { name: /^Ada is on call/ });
    expect(
      within(mine)
        .getByRole('link', { name: /in your profile/ })
        .getAttribute('href'),
    ).toBe('/profile');
    expect(within(screen.getByRole('row', { name: /^nobody is on call/ })).getByRole('link', { name: /layer or an override/ })).toBeTruthy();
    expect(
      within(screen.getByRole('row', { name: /^step 1 of/ }))
        .getByRole('link')
        .getAttribute('href'),
    ).toBe('/escalation-policies');
  });

  it('when there is no gap, then the page says the workspace is ready', async () => {
    fakeApi({ 'GET /auth/session': ok(sessionAs('MEMBER')), 'GET /readiness': ok({ from: 'x', to: 'y', gaps: [] }) });
    renderWithApp(<ReadinessPage />);

    expect(await screen.findByText(/Every on-call shift and every escalation step reaches someone/)).toBeTruthy();
  });
});
