import { parse } from 'csv-parse/sync';
import type { Report } from '../../../src/domain/reports/report';
import { reportCsv } from '../../../src/services/reports/csv';

const T0 = new Date('2026-12-01T10:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe('report CSV', () => {
  const base: Report = {
    type: 'incidents',
    range: { from: '2026-12-01', to: '2026-12-02', time_zone: 'UTC', time_zone_source: 'default_utc' },
    generated_at: T0.toISOString(),
  };
  const row = {
    number: 7,
    title: '=HYPERLINK("http://evil")',
    service: 'API, "edge"',
    severity: 'HIGH' as const,
    status: 'RESOLVED' as const,
    created_at: T0.toISOString(),
    acknowledged_at: null,
    resolved_at: at(90).toISOString(),
    tta: null,
    ttr: 90,
  };

  it('when the type is incidents, then it is one row per incident under a header, CRLF, quoted where needed, and a formula-like title is defused', () => {
    const text = reportCsv({ ...base, incidents: [row] });
    expect(text.split('\r\n')[0]).toBe('number,title,service,severity,status,created_at,acknowledged_at,resolved_at,tta_seconds,ttr_seconds');
    expect(parse(text, { columns: true })).toEqual([
      {
        number: '7',
        title: `'=HYPERLINK("http://evil")`,
        service: 'API, "edge"',
        severity: 'HIGH',
        status: 'RESOLVED',
        created_at: T0.toISOString(),
        acknowledged_at: '',
        resolved_at: at(90).toISOString(),
        tta_seconds: '',
        ttr_seconds: '90',
      },
    ]);
  });

  it('when the type has several parts, then each figure is a (section, group, metric, value) row', () => {
    const text = reportCsv({
      ...base,
      type: 'summary',
      totals: { incidents: 1, acknowledged: 0, resolved: 1, open: 0, alerts: 3, pages: 2 },
      mtta: { count: 0, mean: null, p50: null, p90: null },
    });
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toContainEqual({ section: 'totals', group: 'overall', metric: 'alerts', value: '3' });
    expect(rows).toContainEqual({ section: 'mtta', group: 'overall', metric: 'mtta_mean', value: '' });
  });
});
