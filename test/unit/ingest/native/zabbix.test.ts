import { zabbixSender, zabbixValue } from '../../../../src/domain/ingest/native/zabbix';
import { fixtureBody } from '../native-fixtures';

const normalise = (body: unknown) => zabbixSender.normalise(body, {})[0];
const problem = (extra: Record<string, unknown> = {}) => ({ ...fixtureBody('zabbix/problem.json'), ...extra });

describe('Zabbix media type', () => {
  it('when a problem carries unexpanded recovery macros, then they read as empty', () => {
    const body = fixtureBody('zabbix/problem.json');
    expect(body.event_recovery_id).toBe('{EVENT.RECOVERY.ID}');
    expect(zabbixValue(body, 'event_recovery_id')).toBeUndefined();
    expect(zabbixValue({ zabbix_url: '{$ZABBIX.URL}' }, 'zabbix_url')).toBeUndefined();
    expect(normalise(body).metadata).not.toHaveProperty('recoveryEventId');
    expect(normalise(fixtureBody('zabbix/recovery.json')).metadata).toHaveProperty('recoveryEventId', '4471388');
  });

  it('when text merely contains braces, then it is kept', () => {
    expect(zabbixValue({ event_name: 'Load {x} high' }, 'event_name')).toBe('Load {x} high');
  });

  it('when event_name is an unexpanded macro, then the title falls back to alert_subject', () => {
    expect(normalise(problem({ event_name: '{EVENT.NAME}' })).title).toBe('Problem: High CPU utilization (over 90% for 5m) on db-primary-02');
  });

  it('when event_id is an unexpanded macro (a media type test), then there is no dedup key', () => {
    expect(normalise(problem({ event_id: '{EVENT.ID}' })).dedupKey).toBeNull();
  });

  it('when an update operation arrives (event_update_status 1), then it is acknowledged and ignored', () => {
    expect(normalise(problem({ event_update_status: '1' })).action).toBe('ignore');
  });

  it.each([
    ['0', 'info'],
    ['1', 'info'],
    ['2', 'warning'],
    ['3', 'warning'],
    ['4', 'critical'],
    ['5', 'critical'],
  ])('when event_nseverity is %s, then severity is %s', (level, severity) => {
    expect(normalise(problem({ event_nseverity: level })).severity).toBe(severity);
  });

  it('when event_nseverity is unexpanded, then the severity name is used', () => {
    expect(normalise(problem({ event_nseverity: '{EVENT.NSEVERITY}', event_severity: 'Disaster' })).severity).toBe('critical');
    expect(normalise(problem({ event_nseverity: '{EVENT.NSEVERITY}', event_severity: '{EVENT.SEVERITY}' })).severity).toBe('warning');
  });
});
