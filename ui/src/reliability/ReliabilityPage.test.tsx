import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { formatSeconds } from './reliability';
import { ReliabilityPage } from './ReliabilityPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const status = (over: object = {}) => ({
  status: 'ok',
  problems: [],
  checked_at: new Date().toISOString(),
  canary: { last_success_at: null },
  latency: { hour: { p50: 0.142, p99: 2.47 }, day: { p50: 0.2, p99: 45 } },
  ...over,
});

const rowOf = (table: string, name: RegExp) => within(screen.getByRole('table', { name: table })).getByRole('row', { name });

describe('ReliabilityPage', () => {
  it('when pages went out, then the last hour’s and day’s p50 and p99 of alert to first page show in readable units', async () => {
    fakeApi({ 'GET /auth/session': ok(sessionAs('MEMBER')), 'GET /status': ok(status()) });
    renderWithApp(<ReliabilityPage />);
    await screen.findByRole('table', { name: 'Alert to first page' });
    expect(rowOf('Alert to first page', /^Last hour/).textContent).toBe('Last hour142 ms2.5 s');
    expect(rowOf('Alert to first page', /^Last 24 hours/).textContent).toBe('Last 24 hours200 ms45 s');
  });

  it('when nothing was paged in a window, then it says so rather than 0', async () => {
    fakeApi({ 'GET /status': ok(status({ latency: { hour: { p50: null, p99: null }, day: { p50: 1.5, p99: 90 } } })) });
    renderWithApp(<ReliabilityPage />);
    await screen.findByRole('table', { name: 'Alert to first page' });
    expect(rowOf('Alert to first page', /^Last hour/).textContent).toBe('Last hourno pagesno pages');
    expect(rowOf('Alert to first page', /^Last 24 hours/).textContent).toBe('Last 24 hours1.5 s1 min 30 s');
  });

  it('when the canary never passed, then it says never and that the watchdog is off without WATCHDOG_URL', async () => {
    fakeApi({ 'GET /status': ok(status()) });
    renderWithApp(<ReliabilityPage />);
    const canary = await screen.findByRole('region', { name: 'Watchdog canary' });
    expect(canary.textContent).toContain('never');
    expect(canary.textContent).toContain('The watchdog is off unless WATCHDOG_URL');
  });

  it('when the canary passed a minute ago, then it says when', async () => {
    fakeApi({ 'GET /status': ok(status({ canary: { last_success_at: new Date(Date.now() - 90_000).toISOString() } })) });
    renderWithApp(<ReliabilityPage />);
    const canary = await screen.findByRole('region', { name: 'Watchdog canary' });
    expect(canary.textContent).toContain('The canary last passed 2 min ago');
    expect(canary.textContent).not.toContain('never');
  });

  it('when a carrier is skipped, then each carrier shows healthy or skipped until when', async () => {
    const until = new Date(Date.now() + 5 * 60_000).toISOString();
    fakeApi({
      'GET /status': ok(
        status({
          carriers: [
            { carrier: 'twilio', healthy: false, skipped_until: until },
            { carrier: 'vonage', healthy: true, skipped_until: null },
          ],
        }),
      ),
    });
    renderWithApp(<ReliabilityPage />);
    await screen.findByRole('table', { name: 'Carriers' });
    expect(rowOf('Carriers', /^Twilio/).textContent).toBe('TwilioSkipped until in 5 min');
    expect(rowOf('Carriers', /^Vonage/).textContent).toBe('VonageHealthy');
  });

  it('when the server names no carrier, or does not report them, then the page says which', async () => {
    fakeApi({ 'GET /status': ok(status({ carriers: [] })) });
    renderWithApp(<ReliabilityPage />);
    expect(await screen.findByText(/No SMS or voice carrier is configured/)).toBeTruthy();
    cleanup();
    fakeApi({ 'GET /status': ok(status()) });
    renderWithApp(<ReliabilityPage />);
    expect(await screen.findByText('This server does not report carrier health.')).toBeTruthy();
  });

  it('when the page loads, then it points to the raw histograms and the docs that explain them', async () => {
    fakeApi({ 'GET /status': ok(status()) });
    renderWithApp(<ReliabilityPage />);
    const link = await screen.findByRole('link', { name: /raw histograms/ });
    expect(link.getAttribute('href')).toBe('/metrics');
    expect(screen.getByText(/docs\/reliability\.md/)).toBeTruthy();
  });

  it('when /api/status cannot be read, then the page says so', async () => {
    fakeApi({ 'GET /status': refused(500, 'internal', 'Postgres is not reachable') });
    renderWithApp(<ReliabilityPage />);
    expect(await screen.findByText('Could not load reliability')).toBeTruthy();
    expect(screen.getByText('Postgres is not reachable')).toBeTruthy();
  });
});

describe('formatSeconds', () => {
  it('when latencies span ms to minutes, then each reads in its unit', () => {
    expect([formatSeconds(null), formatSeconds(0.005), formatSeconds(0.9994), formatSeconds(2.47), formatSeconds(59.96), formatSeconds(185)]).toEqual([
      'no pages',
      '5 ms',
      '999 ms',
      '2.5 s',
      '60 s',
      '3 min 5 s',
    ]);
  });
});
