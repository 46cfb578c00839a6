import { admitAlerts, nextPeriodStart, thresholdAlerts, usagePeriod } from '../../../src/domain/plans';

describe('the monthly alert quota', () => {
  it('when requests arrive in order, then each fits whole or not at all, and one that stores nothing always fits', () => {
    expect(admitAlerts(50, 47, [1, 3, 2, 0, 1])).toEqual({ admitted: [true, false, true, true, false], used: 50 });
  });

  it('when the month is already over the quota (a downgrade), then every new alert is refused and the count stays', () => {
    expect(admitAlerts(50, 60, [1, 0])).toEqual({ admitted: [false, true], used: 60 });
  });

  it('when the usage period and reset are computed, then they follow the UTC calendar month', () => {
    expect(usagePeriod(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11');
    expect(nextPeriodStart(new Date('2026-11-30T23:59:59Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(nextPeriodStart(new Date('2026-12-15T00:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('when FREE allows 50 alerts, then the usage emails go at 40 and 50', () => {
    expect([thresholdAlerts(50, 80), thresholdAlerts(50, 100)]).toEqual([40, 50]);
  });
});
