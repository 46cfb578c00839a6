import { formatDuration, percentile, summarise } from '../../../src/domain/reports/durations';
import { isNightHour } from '../../../src/domain/reports/night';

describe('response-time figures', () => {
  it('when there are no durations, then the count is 0 and the figures are null', () => {
    expect(summarise([])).toEqual({ count: 0, mean: null, p50: null, p90: null });
  });

  it('when there is one duration, then mean, p50 and p90 are that duration', () => {
    expect(summarise([42])).toEqual({ count: 1, mean: 42, p50: 42, p90: 42 });
  });

  it('when there are several, then the percentiles interpolate between ranks as percentile_cont does, in any order', () => {
    expect(summarise([30, 10, 20, 40])).toEqual({ count: 4, mean: 25, p50: 25, p90: 37 });
    expect(summarise([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toEqual({ count: 10, mean: 5.5, p50: 5.5, p90: 9.1 });
    expect(percentile([60, 120, 600], 0.9)).toBe(504);
  });

  it('when a mean does not divide evenly, then it is given to the millisecond', () => {
    expect(summarise([1, 1, 2]).mean).toBe(1.333);
  });

  it.each([
    [null, '-'],
    [0, '0 s'],
    [45, '45 s'],
    [60, '1 min'],
    [150, '2 min 30 s'],
    [3600, '1 h'],
    [3900, '1 h 5 min'],
    [90_000, '1 d 1 h'],
  ])('when %p seconds are shown, then they read %p', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe('night-time', () => {
  it('when an hour is between 22:00 and 06:59, then it is night; 07:00 to 21:59 is day', () => {
    const night = Array.from({ length: 24 }, (_, h) => h).filter(isNightHour);
    expect(night).toEqual([0, 1, 2, 3, 4, 5, 6, 22, 23]);
  });
});
