import { ageInWords } from '../../src/domain/age';

describe('ageInWords', () => {
  const now = new Date('2026-11-29T03:00:00Z');
  const ago = (ms: number) => ageInWords(new Date(now.getTime() - ms), now);

  it('when under a minute, then "just now"; minutes up to an hour; hours up to two days; then days', () => {
    expect(ago(59_000)).toBe('just now');
    expect(ago(3 * 60_000)).toBe('3 min ago');
    expect(ago(59 * 60_000 + 59_000)).toBe('59 min ago');
    expect(ago(60 * 60_000)).toBe('1 h ago');
    expect(ago(47 * 3_600_000)).toBe('47 h ago');
    expect(ago(4 * 86_400_000)).toBe('4 days ago');
  });

  it('when the clock is behind the event (a skewed server), then "just now", never a negative age', () => {
    expect(ago(-120_000)).toBe('just now');
  });
});
