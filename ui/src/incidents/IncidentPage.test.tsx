import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IncidentDetail } from '../api/types';
import { renderWithApp } from '../test/render';
import { IncidentPage } from './IncidentPage';

const incident: IncidentDetail = {
  id: 'i1',
  number: 7,
  title: 'Checkout is down',
  description: null,
  severity: 'CRITICAL',
  status: 'TRIGGERED',
  service_id: null,
  owning_team_id: 't1',
  alert_count: 1,
  created_at: '2026-11-24T03:00:00.000Z',
  acknowledged_at: null,
  resolved_at: null,
  closed_at: null,
  links: { temporal_ui: 'http://localhost:8233/namespaces/default/workflows/incident-i1' },
  alerts: [],
  timeline: [],
  pages: [],
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** GET answers the incident as the server has it; the acknowledge waits until the test answers it. */
function server(refusal: { status: number; code: string; error: string }) {
  let answer!: () => void;
  const acknowledged = new Promise<Response>((resolve) => {
    answer = () => resolve(json(refusal.status, { success: false, ...refusal, timestamp: '2026-11-24T03:00:01.000Z' }));
  });
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    if ((init.method ?? 'GET') === 'GET' && url === '/api/incidents/i1') return json(200, { success: true, data: incident, message: 'ok' });
    if (init.method === 'POST' && url === '/api/incidents/i1/acknowledge') return acknowledged;
    return json(404, { success: false, error: `no fake for ${url}`, code: 'not_found' });
  });
  vi.stubGlobal('fetch', fetch);
  return { answer, fetch };
}

afterEach(() => vi.unstubAllGlobals());

const renderPage = () =>
  renderWithApp(
    <Routes>
      <Route path="/incidents/:id" element={<IncidentPage />} />
    </Routes>,
    { path: '/incidents/i1' },
  );

describe('the incident page', () => {
  it('when Acknowledge is pressed, then the page shows ACKNOWLEDGED at once; when the server refuses with 409, then it goes back to TRIGGERED and says why', async () => {
    const api = server({ status: 409, code: 'invalid_transition', error: 'the incident is RESOLVED: it cannot be acknowledged' });
    renderPage();
    await screen.findByText('TRIGGERED');
    fireEvent.click(screen.getByRole('button', { name: 'Acknowledge' }));

    // Optimistic: before the server answers.
    await screen.findByText('ACKNOWLEDGED');
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).toBeNull();

    api.answer();
    await screen.findByText('the incident is RESOLVED: it cannot be acknowledged');
    await screen.findByText('TRIGGERED');
    expect(screen.queryByText('ACKNOWLEDGED')).toBeNull();
    expect(screen.getByRole('button', { name: 'Acknowledge' })).toBeTruthy();
  });

  it('when the incident is TRIGGERED, then the keyboard shortcut a acknowledges it', async () => {
    const api = server({ status: 409, code: 'invalid_transition', error: 'refused' });
    renderPage();
    await screen.findByText('TRIGGERED');
    fireEvent.keyDown(document.documentElement, { key: 'a', code: 'KeyA' });
    await waitFor(() => expect(api.fetch.mock.calls.some(([url, init]) => url === '/api/incidents/i1/acknowledge' && init?.method === 'POST')).toBe(true));
  });
});
