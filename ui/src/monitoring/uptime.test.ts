import { describe, expect, it } from 'vitest';
import { dayTitle, formatPercent, localDay, uptimeColor, uptimeDays, uptimeLabel } from './uptime';

const NOW = new Date('2026-12-01T12:00:00.000Z');
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(NOW.getTime() - n * DAY).toISOString();
/** What GET /api/uptime answers as `daily`: 30 blocks of 24 h, oldest first, the last ending now. */
const daily = (availability: (i: number) => number | null) =>
  Array.from({ length: 30 }, (_, i) => ({ from: daysAgo(30 - i), to: daysAgo(29 - i), availability: availability(i) }));

describe('uptimeDays', () => {
  it('when the API gives 30 daily blocks, then the bar shows each block’s own figure, oldest first, the newest being the last 24 hours', () => {
    const days = uptimeDays(
      daily((i) => (i === 20 ? 0.5 : 1)),
      daysAgo(60),
      NOW,
    );
    expect(days).toHaveLength(30);
    expect(days[29]).toEqual({ end: NOW, availability: 1, watched: true, latest: true });
    expect(days[20].availability).toBe(0.5);
    expect(uptimeColor(days[20].availability)).toBe('red');
    expect(days[0].end.toISOString()).toBe(daysAgo(29));
  });

  it('when a heartbeat was created three and a half days ago, then the blocks before it are not watched and not coloured', () => {
    const days = uptimeDays(
      daily((i) => (i >= 26 ? 1 : null)),
      daysAgo(3.5),
      NOW,
    );
    expect(days.filter((d) => d.watched)).toHaveLength(4);
    expect(days.slice(0, 26).every((d) => !d.watched && uptimeColor(d.availability) === 'gray')).toBe(true);
  });

  it('when a block has no figure (nothing observed), then it is null, not 100 %', () => {
    const days = uptimeDays(
      daily((i) => (i === 29 ? null : 1)),
      daysAgo(60),
      NOW,
    );
    expect(days[29].availability).toBeNull();
    expect(dayTitle(days[29])).toBe('Last 24 hours: no data');
  });

  it('while the figures load, then the bar has 30 grey blocks up to now', () => {
    const days = uptimeDays(undefined, daysAgo(60), NOW);
    expect(days).toHaveLength(30);
    expect(days[29].end).toEqual(NOW);
    expect(days.every((d) => d.availability === null)).toBe(true);
  });
});

describe('colours and words', () => {
  it('when availability falls, then the colour moves from green to red, and null is grey', () => {
    expect([1, 0.999, 0.995, 0.985, 0.96, 0.9, null].map(uptimeColor)).toEqual(['green', 'green', 'lime', 'yellow', 'orange', 'red', 'gray']);
  });

  it('when a figure is shown, then it keeps two decimals at most and never rounds a failure up to 100 %', () => {
    expect(formatPercent(1)).toBe('100 %');
    expect(formatPercent(0.9995)).toBe('99.95 %');
    expect(formatPercent(0.999999)).toBe('99.99 %');
    expect(formatPercent(0.916667)).toBe('91.66 %');
    expect(formatPercent(0)).toBe('0 %');
  });

  it('when a bar is labelled, then it names the object, its 30-day figure and the period', () => {
    expect(uptimeLabel('Checkout API', 0.99951)).toBe('Checkout API: 99.95 % over 30 days');
    expect(uptimeLabel('New site', null)).toBe('New site: no data over 30 days');
  });

  it('when a block is hovered, then its title gives the 24 hours it covers and its figure', () => {
    const days = uptimeDays(
      daily((i) => (i === 28 ? 0.99871 : 1)),
      daysAgo(60),
      NOW,
    );
    expect(dayTitle(days[29])).toBe('Last 24 hours: 100 %');
    expect(dayTitle(days[28])).toMatch(new RegExp(`^24 h to ${localDay(days[28].end)} \\d\\d:\\d\\d: 99.87 %$`));
    const young = uptimeDays(
      daily(() => null),
      daysAgo(1.5),
      NOW,
    );
    expect(dayTitle(young[0])).toMatch(/: not watched yet$/);
  });
});
