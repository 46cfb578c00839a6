import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Report } from '../../../src/domain/reports/report';
import { renderWithApp } from '../test/render';
import { ReportsPage } from './ReportsPage';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const range = { from: '2026-12-01', to: '2026-12-07', time_zone: 'UTC', time_zone_source: 'default_utc' as const };
const stats = { count: 1, mean: 120, p50: 120, p90: 120 };
const detailed: Report = {
  type: 'summary',
  range,
  generated_at: '2026-12-07T10:00:00.000Z',
  totals: { incidents: 3, acknowledged: 2, resolved: 1, open: 2, alerts: 9, pages: 4 },
  mtta: stats,
  mttr: { ...stats, mean: 3600 },
  by_severity: [
    { severity: 'CRITICAL', count: 1 },
    { severity: 'HIGH', count: 2 },
    { severity: 'MEDIUM', count: 0 },
    { severity: 'LOW', count: 0 },
    { severity: 'INFO', count: 0 },
  ],
  by_status: [],
  incidents_per_day: [{ day: '2026-12-02', count: 3 }],
};

let reports: Array<{ body: Record<string, unknown>; headers: Record<string, string> }>;
let answer: (body: Record<string, unknown>) => Response;

beforeEach(() => {
  reports = [];
  answer = () => json({ success: true, data: detailed, message: '' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url === '/api/auth/session') return json({ success: true, data: { csrf_token: 'tok', user: {}, organization: {}, role: 'MEMBER' } });
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      reports.push({ body, headers: init.headers as Record<string, string> });
      return answer(body);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const renderPage = () => renderWithApp(<ReportsPage />);

describe('ReportsPage', () => {
  it("when a report is shown and Download PDF is clicked, then the same type and days are fetched as PDF with the CSRF header and saved under the server's file name", async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    URL.createObjectURL = vi.fn(() => 'blob:report');
    URL.revokeObjectURL = vi.fn();
    answer = (body) =>
      body.format === 'pdf'
        ? new Response('%PDF-1.4', {
            headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="klaxon-summary-2026-12-01-2026-12-07.pdf"' },
          })
        : json({ success: true, data: detailed, message: '' });
    renderPage();

    const figures = await screen.findByRole('group', { name: 'MTTR' });
    expect(within(figures).getByText('1 h')).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Incidents per day' })).toBeTruthy();
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-12-01');
    // Days in UTC until the reader sets a zone: the note links to where it is set.
    expect(screen.getByRole('link', { name: 'My profile' }).getAttribute('href')).toBe('/profile');

    fireEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(saved).toEqual(['klaxon-summary-2026-12-01-2026-12-07.pdf']));
    const pdf = reports.find((r) => r.body.format === 'pdf')!;
    expect(pdf.body).toEqual({ type: 'summary', dateRange: '2026-12-01 to 2026-12-07', format: 'pdf' });
    expect(pdf.headers['X-CSRF-Token']).toBe('tok');
  });

  it('when the range holds no incident, then the page says so instead of empty charts', async () => {
    answer = () => json({ success: true, data: { ...detailed, totals: { ...detailed.totals, incidents: 0 }, incidents_per_day: [] }, message: '' });
    renderPage();
    expect(await screen.findByText(/No incidents were opened from 2026-12-01 to 2026-12-07/)).toBeTruthy();
    expect(screen.queryByRole('figure', { name: 'Incidents per day' })).toBeNull();
  });

  it('when the server refuses the range (history window), then its message sits under the days and no report is shown', async () => {
    renderPage();
    await screen.findByRole('figure', { name: 'Incidents per day' });
    answer = () =>
      json({ success: false, code: 'invalid_request', timestamp: '', error: "dateRange: starts 2026-09-01, before your plan's history window of 7 days" }, 400);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-09-01' } });
    expect(await screen.findByText(/before your plan's history window/)).toBeTruthy();
    expect(screen.queryByRole('figure', { name: 'Incidents per day' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Download PDF' })).toBeNull();
    expect(reports.at(-1)!.body).toEqual({ type: 'summary', dateRange: '2026-09-01 to 2026-12-07' });
  });
});
