import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../test/render';
import { ReadinessList } from './ReadinessList';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A screen `phone` wide or not, as matchMedia answers the component's query. */
const screenIsPhone = (phone: boolean) =>
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: phone && query.includes('max-width'),
    media: query,
    onchange: null,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    dispatchEvent: () => false,
  }));

const gaps = [
  {
    kind: 'schedule_gap' as const,
    schedule_id: 's1',
    from: '2026-11-24T00:00:00.000Z',
    to: '2026-11-24T08:00:00.000Z',
    detail: 'nobody is on call on "Nights"',
  },
];

describe('readiness gaps on a phone', () => {
  it('when the screen is phone-wide, then the gaps table is not in a sideways scroll box and each cell names its column (Why, Fix) for the card layout', () => {
    screenIsPhone(true);
    renderWithApp(<ReadinessList gaps={gaps} />);
    const table = screen.getByRole('table', { name: 'Readiness gaps' });
    expect(table.classList.contains('klx-phone-cards')).toBe(true);
    expect(table.closest('.mantine-TableScrollContainer-scrollContainer')).toBeNull();
    const row = within(table).getByRole('row', { name: 'nobody is on call on "Nights"' });
    expect(within(row).getByText('nobody is on call on "Nights"').closest('td')?.getAttribute('data-label')).toBe('Why');
    expect(within(row).getByRole('link').closest('td')?.getAttribute('data-label')).toBe('Fix');
  });

  it('when the screen is wide, then the table scrolls in its own box as before', () => {
    screenIsPhone(false);
    renderWithApp(<ReadinessList gaps={gaps} />);
    expect(screen.getByRole('table', { name: 'Readiness gaps' }).closest('.mantine-TableScrollContainer-scrollContainer')).not.toBeNull();
  });
});
