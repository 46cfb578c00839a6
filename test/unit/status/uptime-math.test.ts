import {
  checkAvailability,
  clipAndMerge,
  coveredMs,
  heartbeatAvailability,
  overlapMs,
  pausedSpans,
  windowStarts,
} from '../../../src/services/status/uptime-math';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 5, 30, 12, 0);

describe('uptime windows and intervals', () => {
  it('when windows are laid out, then each starts its length before now', () => {
    expect(windowStarts(NOW)).toEqual({ '24h': NOW - DAY, '7d': NOW - 7 * DAY, '30d': NOW - 30 * DAY });
  });

  it('when spans overlap or stick out of the range, then they are clipped and merged so each instant counts once', () => {
    const spans = [
      { start: 0, end: 10 },
      { start: 5, end: 20 },
      { start: 30, end: null },
      { start: -10, end: -5 },
    ];
    expect(clipAndMerge(spans, 0, 40)).toEqual([
      { start: 0, end: 20 },
      { start: 30, end: 40 },
    ]);
    expect(coveredMs(spans, 0, 40)).toBe(30);
    expect(coveredMs(spans, 15, 35)).toBe(10);
    expect(overlapMs([{ start: 0, end: 20 }], [{ start: 10, end: 30 }], 0, 40)).toBe(10);
  });
});

describe('monitor availability', () => {
  it('when checks were counted per window, then it is ok ÷ all, and null for a window without checks', () => {
    expect(checkAvailability({ '24h': { ok: 3, total: 4 }, '7d': { ok: 9, total: 10 }, '30d': { ok: 0, total: 0 } })).toEqual({
      '24h': 0.75,
      '7d': 0.9,
      '30d': null,
    });
  });
});

describe('heartbeat availability', () => {
  const createdAt = NOW - 60 * DAY;

  it('when it never missed a check-in, then it is 1 in every window', () => {
    expect(heartbeatAvailability({ createdAt, down: [], paused: [] }, NOW)).toEqual({ '24h': 1, '7d': 1, '30d': 1 });
  });

  it('when an incident was open 6 h yesterday and one is still open for the last 2 h, then each window counts its share', () => {
    const down = [
      { start: NOW - 30 * HOUR, end: NOW - 24 * HOUR },
      { start: NOW - 2 * HOUR, end: null },
    ];
    const a = heartbeatAvailability({ createdAt, down, paused: [] }, NOW);
    expect(a['24h']).toBeCloseTo(1 - 2 / 24, 6);
    expect(a['7d']).toBeCloseTo(1 - 8 / (7 * 24), 6);
    expect(a['30d']).toBeCloseTo(1 - 8 / (30 * 24), 6);
  });

  it('when it was created 12 h ago, then its windows count only the time since (and it is not down before it existed)', () => {
    const a = heartbeatAvailability({ createdAt: NOW - 12 * HOUR, down: [{ start: NOW - 3 * HOUR, end: NOW }], paused: [] }, NOW);
    expect(a).toEqual({ '24h': 0.75, '7d': 0.75, '30d': 0.75 });
  });

  it('when it was paused, then paused time counts as neither up nor down, even under an open incident', () => {
    const paused = [{ start: NOW - 12 * HOUR, end: NOW - 6 * HOUR }];
    const down = [{ start: NOW - 14 * HOUR, end: NOW - 10 * HOUR }];
    // Watched: 24 − 6 = 18 h; down outside the pause: 2 h.
    expect(heartbeatAvailability({ createdAt, down, paused }, NOW)['24h']).toBeCloseTo(1 - 2 / 18, 6);
  });

  it('when it was paused the whole window, then that window is null', () => {
    expect(heartbeatAvailability({ createdAt, down: [], paused: [{ start: NOW - 2 * DAY, end: null }] }, NOW)['24h']).toBeNull();
  });

  it('when pause and resume events are replayed, then they become paused spans, an unmatched pause running until now', () => {
    expect(
      pausedSpans(
        [
          { at: 30, paused: false },
          { at: 10, paused: true },
          { at: 20, paused: false },
          { at: 40, paused: true },
          { at: 45, paused: true },
        ],
        { createdAt: 0, pausedNow: true },
      ),
    ).toEqual([
      { start: 10, end: 20 },
      { start: 40, end: null },
    ]);
    expect(pausedSpans([], { createdAt: 5, pausedNow: true })).toEqual([{ start: 5, end: null }]);
    expect(pausedSpans([], { createdAt: 5, pausedNow: false })).toEqual([]);
  });
});
