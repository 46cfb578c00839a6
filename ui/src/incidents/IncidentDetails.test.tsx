import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IncidentDetail } from '../api/types';
import { fakeApi, ok, refused, type FakeRoutes } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { optionsOf } from '../test/select-options';
import { IncidentPage } from './IncidentPage';

const base: IncidentDetail = {
  id: 'i1',
  number: 42,
  title: 'Disk almost full',
  description: null,
  severity: 'CRITICAL',
  status: 'TRIGGERED',
  service_id: 's1',
  service: { id: 's1', name: 'Checkout' },
  owning_team_id: 't1',
  alert_count: 1,
  created_at: '2026-11-24T03:00:00.000Z',
  acknowledged_at: null,
  resolved_at: null,
  closed_at: null,
  links: { temporal_ui: null },
  alerts: [
    {
      id: 'a1',
      title: 'Disk almost full',
      message: 'db-1 at 97%\nsee https://grafana.example.test/d/disk.',
      description: 'Runbook: https://runbooks.example.test/disk <b>bold</b> javascript:alert(1)',
      severity: 'critical',
      status: 'active',
      source: 'prometheus',
      dedup_key: 'disk-db-1',
      tags: null,
      url: 'javascript:alert(1)',
      created_at: '2026-11-24T03:00:00.000Z',
      metadata: {
        labels: { host: 'db-1', region: 'eu-west-1' },
        links: { Silence: 'https://am.example.test/#/silences/new', Bad: 'data:text/html,<script>alert(1)</script>' },
        runbook_url: 'https://runbooks.example.test/disk',
        threshold: 95,
      },
    },
  ],
  timeline: [],
  pages: [],
};

function renderPage(routes: FakeRoutes, incident: IncidentDetail = base) {
  const api = fakeApi({
    'GET /incidents/i1': ok(incident),
    'GET /profile': ok({ id: 'u1', email: 'ada@example.test', name: 'Ada', role: 'MEMBER', time_zone: 'America/New_York' }),
    ...routes,
  });
  renderWithApp(
    <Routes>
      <Route path="/incidents/:id" element={<IncidentPage />} />
    </Routes>,
    { path: '/incidents/i1' },
  );
  return api;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the incident page shows everything the sender said', () => {
  it('when an alert has a message, description, source, dedup key, labels, links and details, then each is shown; its service links to the service page; no snooze while triggered', async () => {
    renderPage({});
    const alert = await screen.findByRole('article', { name: 'Alert Disk almost full' });
    // The message keeps its line break; its URL is a link without the sentence's full stop.
    const message = within(alert).getByLabelText('Message');
    expect(message.textContent).toBe('db-1 at 97%\nsee https://grafana.example.test/d/disk.');
    expect(within(message).getByRole('link', { name: 'https://grafana.example.test/d/disk' }).getAttribute('href')).toBe('https://grafana.example.test/d/disk');
    expect(within(alert).getByLabelText('Description').textContent).toContain('<b>bold</b>');
    expect(alert.querySelector('b')).toBeNull();
    expect(within(alert).getByRole('listitem', { name: 'source: prometheus' })).toBeTruthy();
    expect(within(alert).getByRole('listitem', { name: 'dedup key: disk-db-1' })).toBeTruthy();
    const labels = within(alert).getByRole('list', { name: 'Labels' });
    expect(within(labels).getByRole('listitem', { name: 'host: db-1' })).toBeTruthy();
    expect(within(labels).getByRole('listitem', { name: 'region: eu-west-1' })).toBeTruthy();
    expect(within(alert).getByRole('listitem', { name: 'threshold: 95' })).toBeTruthy();
    const links = within(alert).getByLabelText('Links');
    expect(within(links).getByRole('link', { name: 'Silence' }).getAttribute('href')).toBe('https://am.example.test/#/silences/new');
    expect(within(links).getByRole('link', { name: 'runbook_url' }).getAttribute('href')).toBe('https://runbooks.example.test/disk');
    // Only http(s) is ever a link: not the javascript: url field, not the data: link.
    for (const a of document.querySelectorAll('a')) expect(a.getAttribute('href')).toMatch(/^(https?:\/\/|\/)/);
    expect(within(alert).queryByRole('link', { name: 'Bad' })).toBeNull();

    // A triggered incident cannot be snoozed: only an acknowledged one offers it.
    expect(screen.queryByRole('button', { name: 'Snooze' })).toBeNull();
    const service = screen.getByRole('link', { name: 'Checkout' });
    expect(service.getAttribute('href')).toBe('/services/s1');
  });

  it('when the incident opened a while ago, then it reads relatively, with the exact time in My profile’s zone on hover', async () => {
    renderPage({});
    await screen.findByRole('article', { name: 'Alert Disk almost full' });
    await waitFor(() => expect(document.querySelector('time')?.getAttribute('title')).toBe('Nov 23, 2026, 22:00:00 EST'));
    expect(document.querySelector('time')?.textContent).toMatch(/ago$/);
  });
});

describe('responding from the incident page', () => {
  it('when a note is written and added, then it is posted as text and the field empties; a refusal is shown under it', async () => {
    const api = renderPage({ 'POST /incidents/i1/notes': [ok({}, 'ok', 201), refused(400, 'invalid_request', 'text: must be at most 10000 characters')] });
    const note = await screen.findByRole('textbox', { name: 'Note' });
    fireEvent.change(note, { target: { value: 'Rolled back to v41, see https://ci.example.test/1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(api.calls('POST /incidents/i1/notes')).toEqual([{ text: 'Rolled back to v41, see https://ci.example.test/1' }]));
    await waitFor(() => expect((note as HTMLTextAreaElement).value).toBe(''));
    fireEvent.change(note, { target: { value: 'again' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    await screen.findByText('text: must be at most 10000 characters');
  });

  it('when responders are added, then the chosen person and team are posted as targets with the message', async () => {
    const api = renderPage({
      'GET /members': ok([{ id: 'u2', email: 'bob@example.test', name: 'Bob' }]),
      'GET /schedules': ok([]),
      'GET /teams': ok([{ id: 't9', name: 'Database' }]),
      'POST /incidents/i1/responders': ok({}),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add responders' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add responders to #42' });
    const who = within(dialog).getByRole('combobox', { name: 'Who' });
    fireEvent.click(await waitFor(async () => (await optionsOf(who)).getByRole('option', { name: /bob@example.test/, hidden: true })));
    fireEvent.click((await optionsOf(who)).getByRole('option', { name: 'Database', hidden: true }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Message (optional)' }), { target: { value: 'need a DBA' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Page them now' }));
    await waitFor(() =>
      expect(api.calls('POST /incidents/i1/responders')).toEqual([
        {
          targets: [
            { type: 'user', id: 'u2' },
            { type: 'team', id: 't9' },
          ],
          message: 'need a DBA',
        },
      ]),
    );
  });

  it('when an acknowledged incident is snoozed for 30 minutes, then minutes: 30 is posted', async () => {
    const api = renderPage({ 'POST /incidents/i1/snooze': ok({}) }, { ...base, status: 'ACKNOWLEDGED' });
    const snoozeFor = await screen.findByRole('combobox', { name: 'Snooze for' });
    fireEvent.click((await optionsOf(snoozeFor)).getByRole('option', { name: '30 minutes', hidden: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Snooze' }));
    await waitFor(() => expect(api.calls('POST /incidents/i1/snooze')).toEqual([{ minutes: 30 }]));
  });

  it('when other open incidents are merged in, then their ids are posted; this one and resolved ones are not offered', async () => {
    const listed = [
      { ...base, alerts: undefined, id: 'i1', number: 42 },
      { ...base, alerts: undefined, id: 'i2', number: 43, title: 'Disk full again' },
      { ...base, alerts: undefined, id: 'i3', number: 44, title: 'Old one', status: 'RESOLVED' },
    ];
    const api = renderPage({
      'GET /incidents?limit=100': { status: 200, body: { success: true, data: listed, meta: { counts: {}, next_cursor: null } } },
      'POST /incidents/i1/merge': ok({}),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Merge incidents' }));
    const dialog = await screen.findByRole('dialog', { name: 'Merge into #42' });
    const options = await waitFor(async () => {
      const list = await optionsOf(within(dialog).getByRole('combobox', { name: 'Incidents to merge' }));
      list.getByRole('option', { name: '#43 Disk full again', hidden: true });
      return list;
    });
    expect(options.queryByRole('option', { name: /#44/, hidden: true })).toBeNull();
    expect(options.queryByRole('option', { name: /#42/, hidden: true })).toBeNull();
    fireEvent.click(options.getByRole('option', { name: '#43 Disk full again', hidden: true }));
    fireEvent.click(within(dialog).getByRole('button', { name: /Merge 1 into #42/ }));
    await waitFor(() => expect(api.calls('POST /incidents/i1/merge')).toEqual([{ incident_ids: ['i2'] }]));
  });
});
