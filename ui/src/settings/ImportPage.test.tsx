import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import type { ImportReport } from './import-form';
import { ImportPage } from './ImportPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const counts = (over: Partial<ImportReport['created']> = {}) => ({ user: 0, team: 0, schedule: 0, escalation_policy: 0, service: 0, source: 0, ...over });
const PLAN: ImportReport = {
  created: counts({ user: 1, team: 2, schedule: 2 }),
  updated: counts(),
  skipped: [
    {
      kind: 'escalation_policy',
      external_id: 'E1/rules/3',
      name: 'SRE / rule 4',
      why: 'its condition if-not-closed: Klaxon escalates only while nobody has acknowledged',
    },
  ],
  mapping: [
    { kind: 'user', external_id: 'PFRANK0', id: null, name: 'Frank Fisher' },
    { kind: 'team', external_id: 'PT4M001', id: null, name: 'Platform' },
  ],
};
const DONE: ImportReport = { ...PLAN, mapping: [PLAN.mapping[0], { ...PLAN.mapping[1], id: '7a1f0000-0000-4000-8000-000000000001' }] };

describe('ImportPage', () => {
  it('when an admin previews PagerDuty, then the plan shows counts, skips with why and the mapping, and Import runs it', async () => {
    const api = fakeApi({
      'GET /auth/session': ok(sessionAs('ACCOUNT_ADMIN')),
      'POST /import/pagerduty': (body) => ok((body as { dry_run: boolean }).dry_run ? PLAN : DONE),
    });
    renderWithApp(<ImportPage />);
    fireEvent.change(await screen.findByLabelText(/^API token/), { target: { value: 'u+secret-token' } });
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));

    await screen.findByText('The plan (nothing written yet)');
    const perKind = screen.getByRole('table', { name: 'Per kind' });
    expect(within(perKind).getByRole('row', { name: /Teams 2 0/ })).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Skipped' })).getByText(/its condition if-not-closed/)).toBeTruthy();
    const mapping = screen.getByRole('table', { name: 'Mapping' });
    expect(within(mapping).getByRole('row', { name: /Frank Fisher PFRANK0 invited/ })).toBeTruthy();
    expect(within(mapping).getByRole('row', { name: /Platform PT4M001 new/ })).toBeTruthy();
    expect(api.calls('POST /import/pagerduty')).toEqual([{ api_token: 'u+secret-token', dry_run: true }]);

    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText('Imported');
    expect(within(screen.getByRole('table', { name: 'Mapping' })).getByText('7a1f0000-0000-4000-8000-000000000001')).toBeTruthy();
    expect(api.calls('POST /import/pagerduty')[1]).toEqual({ api_token: 'u+secret-token', dry_run: false });
  });

  it('when Opsgenie is chosen with an EU URL, then the key and URL are sent; a changed input hides the plan until previewed again', async () => {
    const api = fakeApi({ 'GET /auth/session': ok(sessionAs('BILLING_OWNER')), 'POST /import/opsgenie': ok(PLAN) });
    renderWithApp(<ImportPage />);
    fireEvent.click(await screen.findByText('Opsgenie'));
    fireEvent.change(screen.getByLabelText(/^API key/), { target: { value: 'og-key' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^API URL/ }), { target: { value: 'https://api.eu.opsgenie.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await screen.findByRole('button', { name: 'Import' });
    expect(api.calls('POST /import/opsgenie')).toEqual([{ api_key: 'og-key', api_url: 'https://api.eu.opsgenie.com', dry_run: true }]);
    fireEvent.change(screen.getByLabelText(/^API key/), { target: { value: 'og-key-2' } });
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
    expect(screen.queryByRole('table', { name: 'Mapping' })).toBeNull();
  });

  it('when the source refuses the token, then its message is shown and there is nothing to import', async () => {
    fakeApi({
      'GET /auth/session': ok(sessionAs('BILLING_OWNER')),
      'POST /import/pagerduty': refused(400, 'source_token_refused', 'PagerDuty refused the API credential (401): check that it is right'),
    });
    renderWithApp(<ImportPage />);
    fireEvent.change(await screen.findByLabelText(/^API token/), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/PagerDuty refused the API credential \(401\)/);
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });

  it('when a Member opens the page, then it says who may import and shows no form', async () => {
    fakeApi({ 'GET /auth/session': ok(sessionAs('MEMBER')) });
    renderWithApp(<ImportPage />);
    await screen.findByText(/Only Billing Owners and Account Admins import/);
    expect(screen.queryByRole('form', { name: 'Import from' })).toBeNull();
  });
});
