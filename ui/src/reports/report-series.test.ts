import { describe, expect, it } from 'vitest';
import type { Report } from '../../../src/domain/reports/report';
import { dailySeries, dayIn, daysOf, incidentCount, performanceSeries } from './report-series';

const range = { from: '2026-12-01', to: '2026-12-03', time_zone: 'Asia/Tokyo', time_zone_source: 'user' as const };
const row = (created_at: string, severity: 'CRITICAL' | 'HIGH' | 'LOW') => ({
  number: 1,
  title: 't',
  service: 'API',
  severity,
  status: 'RESOLVED' as const,
  created_at,
  acknowledged_at: null,
  resolved_at: null,
  tta: null,
  ttr: null,
});

describe('dailySeries', () => {
  it("when a report lists its incidents, then each day of the range is a row stacked by the severities present, days read in the report's zone", () => {
    const report: Report = {
      type: 'incidents',
      range,
      generated_at: '2026-12-03T10:00:00.000Z',
      // 2026-12-01T20:00Z is already 12-02 in Tokyo.
      incidents: [row('2026-12-01T01:00:00.000Z', 'CRITICAL'), row('2026-12-01T20:00:00.000Z', 'HIGH'), row('2026-12-02T03:00:00.000Z', 'HIGH')],
    };
    expect(dailySeries(report)).toEqual({
      keys: ['CRITICAL', 'HIGH'],
      rows: [
        { day: '2026-12-01', CRITICAL: 1, HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 },
        { day: '2026-12-02', CRITICAL: 0, HIGH: 2, MEDIUM: 0, LOW: 0, INFO: 0 },
        { day: '2026-12-03', CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 },
      ],
    });
  });

  it('when a summary has only counts per day, then those are the one series, missing days as zero', () => {
    const report: Report = { type: 'summary', range, generated_at: '', incidents_per_day: [{ day: '2026-12-02', count: 4 }] };
    expect(dailySeries(report)).toEqual({
      keys: ['incidents'],
      rows: [
        { day: '2026-12-01', incidents: 0 },
        { day: '2026-12-02', incidents: 4 },
        { day: '2026-12-03', incidents: 0 },
      ],
    });
  });

  it('when a performance report has no per-day part, then there is no daily chart', () => {
    expect(dailySeries({ type: 'performance', range, generated_at: '', per_team: [] })).toBeNull();
  });
});

describe('helpers', () => {
  it('when days are listed, then both ends are included, across a month end', () => {
    expect(daysOf('2026-11-29', '2026-12-02')).toEqual(['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02']);
    expect(dayIn('2026-12-01T23:30:00.000Z', 'UTC')).toBe('2026-12-01');
    expect(dayIn('2026-12-01T23:30:00.000Z', 'Asia/Tokyo')).toBe('2026-12-02');
  });

  it('when MTTA and MTTR are charted, then means become minutes and uncounted figures stay null', () => {
    const stats = (mean: number | null) => ({ count: mean === null ? 0 : 1, mean, p50: mean, p90: mean });
    expect(
      performanceSeries([
        { name: 'API', mtta: stats(260), mttr: stats(2000) },
        { name: 'Web', mtta: stats(30), mttr: stats(null) },
      ]),
    ).toEqual([
      { name: 'API', mtta: 4.3, mttr: 33.3 },
      { name: 'Web', mtta: 0.5, mttr: null },
    ]);
  });

  it('when a report has no totals, then its incidents are counted from the part it has', () => {
    const perTeam = {
      team_id: 't',
      team: 'Ops',
      incidents: 3,
      mtta: { count: 0, mean: null, p50: null, p90: null },
      mttr: { count: 0, mean: null, p50: null, p90: null },
    };
    expect(incidentCount({ type: 'performance', range, generated_at: '', per_team: [perTeam, { ...perTeam, incidents: 2 }] })).toBe(5);
    expect(incidentCount({ type: 'incidents', range, generated_at: '', incidents: [] })).toBe(0);
  });
});
