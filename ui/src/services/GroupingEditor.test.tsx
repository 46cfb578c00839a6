import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { GroupingEditor, type Replay } from './GroupingEditor';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SERVICE = '44444444-4444-4444-8444-444444444444';
const rule = {
  name: 'disk by host',
  match: [{ field: 'title', op: 'contains', value: 'disk' }],
  group_by: ['labels.host'],
  window_seconds: 600,
  page_after: null,
};
const replay: Replay = {
  alerts_replayed: 40,
  truncated: false,
  pages_before: 12,
  pages_after: 3,
  incidents_before: 12,
  incidents_after: 3,
  groups: [{ key: 'labels.host=db-1', rule: 'disk by host', alerts: 30, first_at: '2026-11-01T00:00:00.000Z', last_at: '2026-11-01T01:00:00.000Z' }],
  split_lost: [{ incident_id: '55555555-5555-4555-8555-555555555555', number: 7, title: 'Disk full on db-1 (other mount)', folded_into: 'labels.host=db-1' }],
};
const routes = (over: Record<string, unknown> = {}) => ({
  [`GET /services/${SERVICE}/grouping`]: ok({ service_id: SERVICE, rules: [rule], updated_at: null }),
  [`POST /services/${SERVICE}/grouping/simulate`]: ok(replay),
  [`PUT /services/${SERVICE}/grouping`]: ok({ service_id: SERVICE, rules: [rule], updated_at: '2026-11-30T10:00:00.000Z' }),
  ...over,
});

describe('GroupingEditor', () => {
  it('when a draft changes, then the last 24 h preview shows, and Save waits until the replay of this very draft was shown', async () => {
    const { calls } = fakeApi(routes() as never);
    renderWithApp(<GroupingEditor serviceId={SERVICE} />);
    expect(await screen.findByDisplayValue('disk by host')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Window (s)'), { target: { value: '900' } });
    expect(await screen.findByText(/Last 24 h with this draft: 12 incidents → 3, 12 pages → 3/, {}, { timeout: 3000 })).toBeTruthy();
    const save = screen.getByRole('button', { name: 'Save rules' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Replay' }));
    expect(await screen.findByText(/40 alerts replayed/)).toBeTruthy();
    expect(screen.getByText(/#7 Disk full on db-1 \(other mount\) → folded into labels.host=db-1/)).toBeTruthy();
    await waitFor(() => expect((screen.getByRole('button', { name: 'Save rules' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Save rules' }));
    await screen.findByText(/Saved: new alerts are grouped/);
    expect(calls(`PUT /services/${SERVICE}/grouping`)).toEqual([{ rules: [{ ...rule, window_seconds: 900 }] }]);
    const replays = calls(`POST /services/${SERVICE}/grouping/simulate`) as Array<{ from: string; to: string }>;
    // The live preview covers a day; the replay the range picked (30 days by default).
    expect(replays.map((r) => Math.round((Date.parse(r.to) - Date.parse(r.from)) / 86_400_000))).toEqual([1, 30]);
  });

  it('when the draft changes after its replay, then Save is disabled again; a refused save shows the field the server named', async () => {
    fakeApi(routes({ [`PUT /services/${SERVICE}/grouping`]: refused(400, 'invalid_request', 'rules.0.match.0.value: can take super-linear time') }) as never);
    renderWithApp(<GroupingEditor serviceId={SERVICE} />);
    await screen.findByDisplayValue('disk by host');
    fireEvent.click(screen.getByRole('button', { name: 'Replay' }));
    await screen.findByText(/40 alerts replayed/);
    fireEvent.click(screen.getByRole('button', { name: 'Save rules' }));
    expect(await screen.findByText('rules.0.match.0.value: can take super-linear time')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'renamed' } });
    expect((screen.getByRole('button', { name: 'Save rules' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
