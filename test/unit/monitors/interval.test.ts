import { monitorMinIntervalSeconds, PLAN_LIMITS, PLANS } from '../../../src/domain/plans';
import { loadConfig } from '../../../src/config';

describe('how often a monitor may check', () => {
  it('when each plan is asked, then FREE 300 s, STARTER 60 s, PRO and BUSINESS 30 s', () => {
    expect(Object.fromEntries(PLANS.map((p) => [p, PLAN_LIMITS[p].monitorMinIntervalSeconds]))).toEqual({ FREE: 300, STARTER: 60, PRO: 30, BUSINESS: 30 });
    expect(PLANS.map((p) => monitorMinIntervalSeconds(p))).toEqual([300, 60, 30, 30]);
  });

  it('when the configured floor is lowered (tests), then it is the only minimum; by default private targets are refused', () => {
    expect(PLANS.map((p) => monitorMinIntervalSeconds(p, 2))).toEqual([2, 2, 2, 2]);
    expect(loadConfig({}).monitors).toEqual({ allowPrivate: false, minIntervalSeconds: 30 });
    expect(loadConfig({ MONITOR_ALLOW_PRIVATE: 'true', MONITOR_MIN_INTERVAL_SECONDS: '2' }).monitors).toEqual({ allowPrivate: true, minIntervalSeconds: 2 });
    expect(() => loadConfig({ MONITOR_MIN_INTERVAL_SECONDS: '31' })).toThrow(/MONITOR_MIN_INTERVAL_SECONDS/);
  });
});
