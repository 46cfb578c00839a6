import { PURGED_TABLES, retentionCutoffs } from '../../../src/domain/retention';
import { RESPONSE_WINDOWS } from '../../../src/services/status/response-times';
import { UPTIME_WINDOWS } from '../../../src/services/status/uptime-math';

const NOW = new Date('2026-12-01T12:00:00.000Z');
const HOUR = 3_600_000;

describe('how long status data is kept', () => {
  it('when the purge runs, then response-time buckets go after 25 h and monitor checks after 31 days', () => {
    const c = retentionCutoffs(NOW);
    expect(c.requestMetricsBefore).toEqual(new Date(NOW.getTime() - 25 * HOUR));
    expect(c.monitorChecksBefore).toEqual(new Date(NOW.getTime() - 31 * 24 * HOUR));
    expect(PURGED_TABLES).toEqual(expect.arrayContaining(['request_metrics', 'monitor_checks']));
  });

  it('when the routes read their longest window, then nothing in it has been purged yet', () => {
    const c = retentionCutoffs(NOW);
    expect(NOW.getTime() - c.requestMetricsBefore.getTime()).toBeGreaterThan(RESPONSE_WINDOWS['24h'] * 60_000);
    expect(NOW.getTime() - c.monitorChecksBefore.getTime()).toBeGreaterThan(UPTIME_WINDOWS['30d']);
  });
});
