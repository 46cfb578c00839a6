import { aggregateIncidents, nightPagesOf } from '../../../src/domain/reports/aggregate';
import type { IncidentFact } from '../../../src/domain/reports/report';
import { isNightHour } from '../../../src/domain/reports/night';

const T0 = new Date('2026-12-01T10:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const fact = (over: Partial<IncidentFact>): IncidentFact => ({
  number: 1,
  title: 't',
  severity: 'HIGH',
  status: 'RESOLVED',
  createdAt: T0,
  acknowledgedAt: null,
  resolvedAt: null,
  serviceId: 's1',
  serviceName: 'API',
  teamId: 't1',
  teamName: 'Ops',
  day: '2026-12-01',
  ...over,
});

describe('incident figures', () => {
  const facts = [
    fact({ number: 1, acknowledgedAt: at(60), resolvedAt: at(600) }),
    fact({ number: 2, acknowledgedAt: at(120), resolvedAt: at(1200), severity: 'CRITICAL' }),
    fact({ number: 3, serviceId: 's2', serviceName: 'Web', acknowledgedAt: at(300), status: 'ACKNOWLEDGED', day: '2026-12-02' }),
    fact({ number: 4, serviceId: null, serviceName: null, teamId: 't2', teamName: 'Data', status: 'TRIGGERED', severity: 'LOW', day: '2026-12-02' }),
  ];
  const figures = aggregateIncidents(facts, ['2026-12-01', '2026-12-02', '2026-12-03']);

  it('when incidents were acknowledged and resolved, then overall MTTA and MTTR count only those that were', () => {
    expect(figures.mtta).toEqual({ count: 3, mean: 160, p50: 120, p90: 264 });
    expect(figures.mttr).toEqual({ count: 2, mean: 900, p50: 900, p90: 1140 });
    expect(figures.counts).toEqual({ incidents: 4, acknowledged: 3, resolved: 2, open: 2 });
  });

  it('when incidents belong to services, then each service and each owning team has its own figures, busiest first', () => {
    expect(figures.per_service.map((s) => [s.service, s.team, s.incidents, s.mtta.mean, s.mttr.mean])).toEqual([
      ['API', 'Ops', 2, 90, 900],
      ['(no service)', 'Data', 1, null, null],
      ['Web', 'Ops', 1, 300, null],
    ]);
    expect(figures.per_team.map((t) => [t.team, t.incidents, t.mtta.mean])).toEqual([
      ['Ops', 3, 160],
      ['Data', 1, null],
    ]);
  });

  it('when counting, then every severity, status and day of the range is listed, with zeros', () => {
    expect(figures.by_severity).toEqual([
      { severity: 'CRITICAL', count: 1 },
      { severity: 'HIGH', count: 2 },
      { severity: 'MEDIUM', count: 0 },
      { severity: 'LOW', count: 1 },
      { severity: 'INFO', count: 0 },
    ]);
    expect(figures.by_status.find((s) => s.status === 'CLOSED')).toEqual({ status: 'CLOSED', count: 0 });
    expect(figures.incidents_per_day).toEqual([
      { day: '2026-12-01', count: 2 },
      { day: '2026-12-02', count: 2 },
      { day: '2026-12-03', count: 0 },
    ]);
  });

  it('when incidents are listed, then each has its times to acknowledge and resolve in seconds', () => {
    expect(figures.incidents[0]).toEqual({
      number: 1,
      title: 't',
      service: 'API',
      severity: 'HIGH',
      status: 'RESOLVED',
      created_at: T0.toISOString(),
      acknowledged_at: at(60).toISOString(),
      resolved_at: at(600).toISOString(),
      tta: 60,
      ttr: 600,
    });
    expect(figures.incidents[3]).toMatchObject({ tta: null, ttr: null, acknowledged_at: null });
  });
});

describe('night pages', () => {
  it('when pages are counted by local hour, then those from 22:00 to 06:59 are night pages; people with most first', () => {
    const people = [
      { userId: 'a', name: 'Ann', email: 'ann@x', zone: 'UTC' },
      { userId: 'b', name: null, email: 'bob@x', zone: 'Asia/Tokyo' },
    ];
    const byHour = [
      { userId: 'a', hour: 12, pages: 3 },
      { userId: 'a', hour: 22, pages: 1 },
      { userId: 'b', hour: 6, pages: 2 },
      { userId: 'b', hour: 7, pages: 1 },
    ];
    expect(nightPagesOf(people, byHour, isNightHour)).toEqual([
      { user_id: 'b', name: null, email: 'bob@x', time_zone: 'Asia/Tokyo', pages: 3, night_pages: 2 },
      { user_id: 'a', name: 'Ann', email: 'ann@x', time_zone: 'UTC', pages: 4, night_pages: 1 },
    ]);
  });
});
