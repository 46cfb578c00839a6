import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TeamsCard } from './TeamsCard';
import { fakeApi, ok, refused, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { optionsOf } from '../test/select-options';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ada = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ada@example.test',
  name: 'Ada',
  role: 'BILLING_OWNER',
  verified: true,
  two_factor_enabled: false,
  joined_at: '2026-11-01T09:00:00.000Z',
};
const lin = {
  id: '00000000-0000-4000-8000-000000000002',
  email: 'lin@example.test',
  name: null,
  role: 'MEMBER',
  verified: true,
  two_factor_enabled: false,
  joined_at: '2026-11-20T14:12:03.000Z',
};
const db = { id: '00000000-0000-4000-8000-0000000000d1', name: 'Database', member_count: 1, service_count: 0, created_at: '2026-11-02T08:00:00.000Z' };
const dbDetail = {
  id: db.id,
  name: 'Database',
  created_at: db.created_at,
  members: [{ id: ada.id, email: ada.email, name: 'Ada', role: 'BILLING_OWNER', added_at: '2026-11-02T08:00:00.000Z' }],
  services: [],
};

const routes = (role: Parameters<typeof sessionAs>[0], over: Parameters<typeof fakeApi>[0] = {}) => ({
  'GET /auth/session': ok(sessionAs(role)),
  'GET /teams': ok([db]),
  [`GET /teams/${db.id}`]: ok(dbDetail),
  'GET /members': ok([ada, lin]),
  ...over,
});

describe('TeamsCard', () => {
  it('when an admin opens a team, then its members are listed, someone else can be added and a member taken out', async () => {
    const api = fakeApi(
      routes('ACCOUNT_ADMIN', {
        [`POST /teams/${db.id}/members`]: ok({ team_id: db.id, user_id: lin.id, email: lin.email, added: true }, 'lin@example.test added to the team'),
        [`DELETE /teams/${db.id}/members/${ada.id}`]: ok({ team_id: db.id, user_id: ada.id, removed: true }),
      }),
    );
    renderWithApp(<TeamsCard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Members of Database' }));
    const dialog = await screen.findByRole('dialog', { name: 'Team Database' });
    expect(within(await within(dialog).findByRole('table', { name: 'Members of Database' })).getByText('Billing Owner')).toBeTruthy();
    // Only people not yet in the team are offered.
    const options = (await optionsOf(await screen.findByRole('combobox', { name: 'Add a member' }))).getAllByRole('option', { hidden: true });
    expect(options.map((o) => o.textContent)).toEqual(['lin@example.test']);
    fireEvent.click(options[0]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add to team' }));
    await waitFor(() => expect(api.calls(`POST /teams/${db.id}/members`)).toEqual([{ user_id: lin.id }]));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take Ada out of Database' }));
    await waitFor(() => expect(api.calls(`DELETE /teams/${db.id}/members/${ada.id}`)).toHaveLength(1));
  });

  it('when a team an escalation policy pages is deleted, then the server’s refusal naming the policy stays in the dialog', async () => {
    const api = fakeApi(
      routes('BILLING_OWNER', {
        [`DELETE /teams/${db.id}`]: refused(
          409,
          'team_in_use',
          'team Database is a target of 1 escalation policy(ies): Storage; remove it from their steps first',
        ),
      }),
    );
    renderWithApp(<TeamsCard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete team Database' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete team Database?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete team' }));
    expect(await within(dialog).findByText(/escalation policy\(ies\): Storage/)).toBeTruthy();
    expect(api.calls(`DELETE /teams/${db.id}`)).toHaveLength(1);
  });

  it('when a Member looks, then teams and their people are shown without ways to change them', async () => {
    fakeApi(routes('MEMBER'));
    renderWithApp(<TeamsCard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Members of Database' }));
    const dialog = await screen.findByRole('dialog', { name: 'Team Database' });
    await within(dialog).findByRole('table', { name: 'Members of Database' });
    expect(within(dialog).queryByRole('button', { name: /Take .* out/ })).toBeNull();
    expect(within(dialog).queryByRole('combobox', { name: 'Add a member' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete team Database' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Team name' })).toBeNull();
  });
});
