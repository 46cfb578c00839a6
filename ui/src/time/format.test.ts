import { describe, expect, it } from 'vitest';
import { exactTime, relativeTime, withReadableTimes } from './format';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('times as people read them', () => {
  it('when a time is seconds, minutes, hours or days away, then it reads "just now", "3 min ago", "2 hr ago", "5 days ago", "in 10 min"', () => {
    expect(relativeTime(ago(10), NOW)).toBe('just now');
    expect(relativeTime(ago(180), NOW)).toBe('3 min ago');
    expect(relativeTime(ago(60), NOW)).toBe('1 min ago');
    expect(relativeTime(ago(2 * 3600 + 600), NOW)).toBe('2 hr ago');
    expect(relativeTime(ago(1 * 86_400), NOW)).toBe('1 day ago');
    expect(relativeTime(ago(5 * 86_400), NOW)).toBe('5 days ago');
    expect(relativeTime(ago(-600), NOW)).toBe('in 10 min');
  });

  it('when the exact time is shown, then it is in the person’s zone, not the browser’s or UTC', () => {
    expect(exactTime('2026-11-24T03:00:00.000Z', 'Europe/Berlin')).toBe('Nov 24, 2026, 04:00:00 GMT+1');
    expect(exactTime('2026-11-24T03:00:00.000Z', 'America/New_York')).toBe('Nov 23, 2026, 22:00:00 EST');
  });

  it('when a timeline message holds a raw ISO instant, then it is written as a time in the person’s zone and the rest is kept', () => {
    const message = 'Not paged: maintenance window “deploy” until 2026-11-24T05:30:00.000Z; pages then if still triggered.';
    expect(withReadableTimes(message, 'Europe/Berlin')).toBe(
      'Not paged: maintenance window “deploy” until Nov 24, 2026, 06:30:00 GMT+1; pages then if still triggered.',
    );
    expect(withReadableTimes('no time here 2026-11-24', 'UTC')).toBe('no time here 2026-11-24');
  });
});
