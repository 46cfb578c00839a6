import { loadConfig } from '../../src/config';
import { decideAutoClose, formatWait, timestampChanges } from '../../src/domain/incident-lifecycle';
import { PLANS } from '../../src/domain/plans';
import { addPurgeCounts, DEFAULT_RETENTION_AGES, noPurgeCounts, retentionCutoffs, stillPurgeableBefore } from '../../src/domain/retention';

const NOW = new Date('2026-12-01T12:00:00Z');
const daysBefore = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

describe('retention cutoffs', () => {
  it('when ages are the defaults, then each cutoff is its age back from now and idempotency records go once expired', () => {
    const c = retentionCutoffs(NOW);
    expect(c.idempotencyExpiredBefore).toEqual(NOW);
    expect(c.outboxDeliveredBefore).toEqual(daysBefore(1));
    expect(c.callbacksReceivedBefore).toEqual(daysBefore(7));
    expect(c.devInboxCreatedBefore).toEqual(daysBefore(7));
  });

  it('when incidents are judged, then each plan keeps its history window (docs/architecture.md, "Plans": 7, 30, 90, 365 days)', () => {
    expect(retentionCutoffs(NOW).incidentsClosedBefore).toEqual({
      FREE: daysBefore(7),
      STARTER: daysBefore(30),
      PRO: daysBefore(90),
      BUSINESS: daysBefore(365),
    });
    expect(Object.keys(retentionCutoffs(NOW).incidentsClosedBefore).sort()).toEqual([...PLANS].sort());
  });

  it('when ages are configured, then the cutoffs follow them', () => {
    const c = retentionCutoffs(NOW, { deliveredOutboxHours: 6, callbackDays: 30, devInboxDays: 0.5 });
    expect(c.outboxDeliveredBefore).toEqual(new Date(NOW.getTime() - 6 * 3_600_000));
    expect(c.callbacksReceivedBefore).toEqual(daysBefore(30));
    expect(c.devInboxCreatedBefore).toEqual(daysBefore(0.5));
  });

  it('when an incident picked for purging is checked again, then it must still be closed before the most recent plan cutoff (FREE)', () => {
    expect(stillPurgeableBefore(retentionCutoffs(NOW))).toEqual(daysBefore(7));
  });

  it('when passes are summed, then every table adds up', () => {
    const a = { ...noPurgeCounts(), incidents: 2, alerts: 5 };
    const b = { ...noPurgeCounts(), incidents: 1, dev_deliveries: 3 };
    expect(addPurgeCounts(a, b)).toEqual({ ...noPurgeCounts(), incidents: 3, alerts: 5, dev_deliveries: 3 });
  });
});

describe('auto-close decisions', () => {
  it('when the timer runs out, then only a RESOLVED incident closes, stamping closed_at', () => {
    expect(decideAutoClose('RESOLVED')).toEqual({ kind: 'move', from: 'RESOLVED', to: 'CLOSED' });
    for (const status of ['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING', 'CLOSED'] as const) expect(decideAutoClose(status)).toEqual({ kind: 'noop' });
    expect(timestampChanges('auto_close', NOW.toISOString())).toEqual({ closed_at: NOW.toISOString() });
  });

  it.each([
    [72 * 3600, '72 h'],
    [5400, '1.5 h'],
    [1800, '30 min'],
    [90, '90 s'],
    [1.8, '2 s'],
  ])('when the wait is %s s, then the timeline says %s', (seconds, said) => {
    expect(formatWait(seconds)).toBe(said);
  });
});

describe('auto-close and retention configuration', () => {
  it('when nothing is set, then a RESOLVED incident closes after 72 h and the retention ages are the defaults', () => {
    const c = loadConfig({});
    expect(c.autoCloseHours).toBe(72);
    expect(c.retention).toEqual(DEFAULT_RETENTION_AGES);
  });

  it('when set, then fractional hours and days are taken as given', () => {
    const c = loadConfig({ AUTO_CLOSE_HOURS: '0.5', RETENTION_CALLBACK_DAYS: '14', RETENTION_DEV_INBOX_DAYS: '2' });
    expect(c.autoCloseHours).toBe(0.5);
    expect(c.retention).toEqual({ ...DEFAULT_RETENTION_AGES, callbackDays: 14, devInboxDays: 2 });
  });

  it.each([
    [{ AUTO_CLOSE_HOURS: '0' }, /AUTO_CLOSE_HOURS/],
    [{ AUTO_CLOSE_HOURS: 'soon' }, /AUTO_CLOSE_HOURS/],
    [{ AUTO_CLOSE_HOURS: String(24 * 366) }, /AUTO_CLOSE_HOURS/],
    [{ RETENTION_DEV_INBOX_DAYS: '-1' }, /RETENTION_DEV_INBOX_DAYS/],
    [{ RETENTION_CALLBACK_DAYS: '1', PAGE_LINK_TTL_HOURS: '48' }, /RETENTION_CALLBACK_DAYS: must cover PAGE_LINK_TTL_HOURS \(48 h\)/],
  ])('when %j, then the error names the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
