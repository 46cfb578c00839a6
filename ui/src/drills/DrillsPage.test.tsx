import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { optionsOf } from '../test/select-options';
import { DrillsPage } from './DrillsPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ME = '00000000-0000-4000-8000-000000000001';
const OPS = '11111111-1111-4111-8111-111111111111';
const NIGHTS = '33333333-3333-4333-8333-333333333333';
const BOB = '22222222-2222-4222-8222-222222222222';

const channel = (id: string, label: string, drillable = true) => ({
  id,
  label,
  address_label: 'Address',
  address_placeholder: '',
  drillable,
  testable: drillable,
});
const CHANNELS = [
  channel('sms', 'SMS'),
  channel('voice', 'Voice call'),
  channel('email', 'Email'),
  channel('slack', 'Slack', false),
  channel('pushover', 'Pushover'),
];

const drill = {
  id: '55555555-5555-4555-8555-555555555555',
  target: { type: 'team', id: OPS },
  channels: null,
  drill_schedule_id: null,
  created_at: '2026-11-30T10:00:00.000Z',
  finished_at: null,
  results: [
    {
      user_id: ME,
      user_name: 'Ada',
      channel: 'sms',
      contact_method_id: 'c1',
      status: 'delivered',
      latency_ms: 840,
      acknowledged_at: '2026-11-30T10:01:00.000Z',
      error: null,
    },
    { user_id: ME, user_name: 'Ada', channel: 'email', contact_method_id: 'c2', status: 'delivered', latency_ms: 1500, acknowledged_at: null, error: null },
    {
      user_id: BOB,
      user_name: 'Bob',
      channel: 'sms',
      contact_method_id: 'c3',
      status: 'failed',
      latency_ms: null,
      acknowledged_at: null,
      error: "The 'To' number +15550100 is not a valid phone number.",
    },
  ],
};

const base = (over: Record<string, unknown> = {}) => ({
  'GET /auth/session': ok(sessionAs('ACCOUNT_ADMIN')),
  'GET /teams': ok([{ id: OPS, name: 'Ops' }]),
  'GET /schedules': ok([{ id: NIGHTS, name: 'Nights' }]),
  'GET /drills?limit=20': ok([drill]),
  'GET /drill-schedules': ok([]),
  // The channel list is the server's (the integrations' declarations): a channel only it knows is offered too.
  'GET /channels': ok({ channels: CHANNELS }),
  ...over,
});

async function pick(label: string, option: string, form: HTMLElement) {
  const select = within(form).getByLabelText(new RegExp(`^${label}`));
  fireEvent.click((await optionsOf(select)).getByRole('option', { name: option, hidden: true }));
}

describe('DrillsPage', () => {
  it('when a drill ran, then each person × channel shows acknowledged, delivered or failed, with latency and the reason', async () => {
    fakeApi(base());
    renderWithApp(<DrillsPage />);

    const sms = await screen.findByRole('row', { name: 'Ada SMS' });
    expect(within(sms).getByText('Acknowledged')).toBeTruthy();
    expect(within(sms).getByText('840 ms')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: 'Ada Email' })).getByText('1.5 s')).toBeTruthy();
    const bob = screen.getByRole('row', { name: 'Bob SMS' });
    expect(within(bob).getByText('Failed')).toBeTruthy();
    expect(within(bob).getByText(/not a valid phone number/)).toBeTruthy();
    expect(await screen.findByText(/: Ops$/)).toBeTruthy();
  });

  it('when I send a test page to a team on SMS only, then the drill is posted with that target and channel', async () => {
    const api = fakeApi(base({ 'POST /drills': ok(drill, 'drill sent', 201) }));
    renderWithApp(<DrillsPage />);

    const form = await screen.findByRole('form', { name: 'Start a drill' });
    await pick('Who', 'A team', form);
    await waitFor(() => expect(within(form).getByLabelText(/^Team/)).toBeTruthy());
    await pick('Team', 'Ops', form);
    fireEvent.click((await optionsOf(within(form).getByLabelText(/^Channels/))).getByRole('option', { name: 'SMS', hidden: true }));
    fireEvent.click(within(form).getByRole('button', { name: 'Send test page' }));

    await waitFor(() => expect(api.calls('POST /drills')).toEqual([{ target: { type: 'team', id: OPS }, channels: ['sms'] }]));
    expect(await screen.findByText('Test page sent: results below.')).toBeTruthy();
  });

  it('when the server lists its channels, then the picker offers the drillable ones, Pushover included, and never Slack', async () => {
    fakeApi(base());
    renderWithApp(<DrillsPage />);
    const form = await screen.findByRole('form', { name: 'Start a drill' });
    const options = await optionsOf(within(form).getByLabelText(/^Channels/));
    await waitFor(() => expect(options.getAllByRole('option', { hidden: true }).map((o) => o.textContent)).toEqual(['SMS', 'Voice call', 'Email', 'Pushover']));
  });

  it('when a drill is refused as too soon, then the server’s reason is shown', async () => {
    fakeApi(base({ 'POST /drills': refused(429, 'rate_limited', 'this user was drilled less than 60 s ago; retry in 42 s') }));
    renderWithApp(<DrillsPage />);

    const form = await screen.findByRole('form', { name: 'Start a drill' });
    fireEvent.click(within(form).getByRole('button', { name: 'Send test page' }));
    expect(await within(form).findByText(/drilled less than 60 s ago/)).toBeTruthy();
  });

  it('when a recurring drill is scheduled for a schedule’s on-call, then weekday, time and zone are posted, and it can be deleted', async () => {
    const created = {
      id: '66666666-6666-4666-8666-666666666666',
      target: { type: 'schedule', id: NIGHTS },
      channels: null,
      cron: '0 10 * * 1',
      time_zone: 'Europe/Berlin',
      created_at: 'x',
    };
    const api = fakeApi(
      base({
        'POST /drill-schedules': ok(created, 'ok', 201),
        'GET /drill-schedules': [ok([]), ok([created])],
        [`DELETE /drill-schedules/${created.id}`]: ok({ id: created.id, deleted: true }),
      }),
    );
    renderWithApp(<DrillsPage />);

    const form = await screen.findByRole('form', { name: 'New recurring drill' });
    await pick('Schedule', 'Nights', form);
    fireEvent.change(within(form).getByLabelText('Time zone'), { target: { value: 'Europe/Berlin' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Schedule drill' }));

    await waitFor(() =>
      expect(api.calls('POST /drill-schedules')).toEqual([
        { target: { type: 'schedule', id: NIGHTS }, weekday: 'monday', time: '10:00', time_zone: 'Europe/Berlin' },
      ]),
    );
    const row = await screen.findByLabelText('Recurring drill 0 10 * * 1');
    expect(within(row).getByText(/Nights: cron/)).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Delete recurring drill' }));
    await waitFor(() => expect(api.calls(`DELETE /drill-schedules/${created.id}`)).toHaveLength(1));
  });
});
