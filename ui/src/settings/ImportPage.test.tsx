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

const counts = (over: Partial<ImportReport['created']> = {}): ImportReport['created'] => ({
  user: 0,
  contact_method: 0,
  notification_rule: 0,
  team: 0,
  schedule: 0,
  escalation_policy: 0,
  service: 0,
  source: 0,
  ...over,
});
const PLAN: ImportReport = {
  created: counts({ user: 1, contact_method: 2, notification_rule: 2, team: 2, schedule: 2 }),
  updated: counts(),
  skipped: [
    {
      kind: 'escalation_policy',
      external_id: 'E1/rules/3',
      name: 'SRE / rule 4',
      why: 'its condition if-not-closed: Klaxon escalates only while nobody has acknowledged',
    },
    {
      kind: 'contact_method',
      external_id: 'PB0B000/PBC0004',
      name: "Bob Baker / Bob's iPhone",
      why: "a push to PagerDuty's mobile app: Klaxon pushes to its own app",
    },
    {
      kind: 'user',
      external_id: 'PGIL000',
      name: 'Gil Grant',
      why: 'gil@example.com already has a Klaxon account outside this workspace, so the import does not take it over: invited as MEMBER',
    },
  ],
  mapping: [
    { kind: 'user', external_id: 'PFRANK0', id: null, name: 'Frank Fisher' },
    { kind: 'user', external_id: 'PB0B000', id: '7a1f0000-0000-4000-8000-0000000000b0', name: 'Bob Baker' },
    { kind: 'user', external_id: 'PGIL000', id: null, name: 'Gil Grant' },
    { kind: 'contact_method', external_id: 'PB0B000/PBC0002', id: null, name: 'Bob Baker / Mobile (+12025550102)' },
    { kind: 'contact_method', external_id: 'PB0B000/PBC0003', id: null, name: 'Bob Baker / Desk (+12025550103)' },
    { kind: 'notification_rule', external_id: 'PB0B000/PBR0002', id: null, name: 'Bob Baker / at once' },
    { kind: 'notification_rule', external_id: 'PB0B000/PBR0003', id: null, name: 'Bob Baker / after 3 min' },
    { kind: 'team', external_id: 'PT4M001', id: null, name: 'Platform' },
  ],
};
const DONE: ImportReport = {
  ...PLAN,
  mapping: PLAN.mapping.map((m, i) => (m.id || m.external_id === 'PGIL000' ? m : { ...m, id: `7a1f0000-0000-4000-8000-00000000000${i}` })),
};

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
    expect(within(mapping).getByRole('row', { name: /Frank Fisher PFRANK0 new/ })).toBeTruthy();
    expect(within(mapping).getByRole('row', { name: /Gil Grant PGIL000 invited/ })).toBeTruthy();
    expect(within(mapping).getByRole('row', { name: /Platform PT4M001 new/ })).toBeTruthy();
    expect(api.calls('POST /import/pagerduty')).toEqual([{ api_token: 'u+secret-token', dry_run: true }]);

    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText('Imported');
    expect(within(screen.getByRole('table', { name: 'Mapping' })).getByText('7a1f0000-0000-4000-8000-000000000007')).toBeTruthy();
    expect(api.calls('POST /import/pagerduty')[1]).toEqual({ api_token: 'u+secret-token', dry_run: false });
  });

  it('when the plan is shown, then each person is listed with how they come, their contact methods and rules; after the import a link leads to readiness', async () => {
    fakeApi({
      'GET /auth/session': ok(sessionAs('BILLING_OWNER')),
      'POST /import/pagerduty': (body) => ok((body as { dry_run: boolean }).dry_run ? PLAN : DONE),
    });
    renderWithApp(<ImportPage />);
    fireEvent.change(await screen.findByLabelText(/^API token/), { target: { value: 'u+token' } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const people = await screen.findByRole('table', { name: 'People' });
    const bob = within(people).getByRole('row', { name: /^Bob Baker PB0B000 member/ });
    expect(within(bob).getByText('Mobile (+12025550102)')).toBeTruthy();
    expect(within(bob).getByText('Desk (+12025550103)')).toBeTruthy();
    expect(within(bob).getByText('at once')).toBeTruthy();
    expect(within(bob).getByText('after 3 min')).toBeTruthy();
    expect(within(people).getByRole('row', { name: /^Frank Fisher PFRANK0 new member none none$/ })).toBeTruthy();
    expect(within(people).getByRole('row', { name: /^Gil Grant PGIL000 invited/ })).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Per kind' })).getByRole('row', { name: /Contact methods 2 0/ })).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Skipped' })).getByText(/push to PagerDuty's mobile app/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Check readiness' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText('Imported');
    expect(screen.getByRole('link', { name: 'Check readiness' }).getAttribute('href')).toBe('/readiness');
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
