import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../test/render';
import { SimulationView, type Simulation } from './SimulationView';

afterEach(cleanup);

const ADA = '11111111-1111-4111-8111-111111111111';
const incident = (n: number, differs: boolean) => ({
  incident_id: `i${n}`,
  number: n,
  title: `Incident ${n}`,
  opened_at: '2026-11-01T10:00:00.000Z',
  ended_at: null,
  would_page: [{ user_id: ADA, name: 'Ada', channel: 'sms', at: '2026-11-01T10:00:00.000Z' }],
  actually_paged: [],
  differs,
});

describe('SimulationView', () => {
  it('when the replay stopped at its page budget and the answer came in parts, then it counts every replayed incident and says why it stopped', () => {
    const result: Simulation = {
      from: '2026-10-29T10:00:00.000Z',
      to: '2026-11-28T10:00:00.000Z',
      truncated: true,
      truncated_reason: 'pages',
      incident_count: 10,
      differing_count: 10,
      next_cursor: 'next',
      incidents: [incident(30, true), incident(29, true), incident(28, true)],
      totals: [{ user_id: ADA, name: 'Ada', would_pages: 100_000, night_pages: 0, actual_pages: 0 }],
    };

    renderWithApp(<SimulationView result={result} />);

    expect(screen.getByText(/^10 incidents replayed with this draft .*: 10 would page differently/)).toBeTruthy();
    expect(screen.getByText(/the replay stopped at 100,000 pages: only the oldest 10 incidents were replayed/)).toBeTruthy();
    expect(screen.getByText('The first 3 of 10 are listed, those that differ first.')).toBeTruthy();
  });
});
