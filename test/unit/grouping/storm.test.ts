import { DEFAULT_STORM, effectiveStorm, parseStormGuardEnv, stormSettingSchema } from '../../../src/domain/grouping/storm';
import { pageAfterReached } from '../../../src/domain/grouping/page-after';

describe('storm guard settings', () => {
  it('when STORM_GUARD is unset, max/within/quiet or off, then the default is 50/60/120, the numbers, or none', () => {
    expect(parseStormGuardEnv(undefined)).toEqual(DEFAULT_STORM);
    expect(DEFAULT_STORM).toEqual({ max_new_incidents: 50, within_seconds: 60, quiet_seconds: 120 });
    expect(parseStormGuardEnv('10/30/300')).toEqual({ max_new_incidents: 10, within_seconds: 30, quiet_seconds: 300 });
    expect(parseStormGuardEnv('off')).toBeNull();
    for (const bad of ['10/30', '0/30/300', 'a/b/c', '10/30/300/1', 'on']) expect(() => parseStormGuardEnv(bad)).toThrow(/STORM_GUARD must be/);
  });

  it('when a source follows the default, sets its own or turns it off, then that is the guard it runs under', () => {
    const own = { max_new_incidents: 5, within_seconds: 10, quiet_seconds: 20 };
    expect(effectiveStorm('default', null, DEFAULT_STORM)).toBe(DEFAULT_STORM);
    expect(effectiveStorm('default', null, null)).toBeNull();
    expect(effectiveStorm('custom', own, DEFAULT_STORM)).toBe(own);
    expect(effectiveStorm('off', own, DEFAULT_STORM)).toBeNull();
    expect(stormSettingSchema.safeParse({ ...own, quiet_seconds: 0 }).success).toBe(false);
    expect(stormSettingSchema.parse(null)).toBeNull();
  });
});

describe('page_after', () => {
  it('when count alerts fall within the window of each other, then it is reached; spread out, it is not', () => {
    expect(pageAfterReached([0, 1000, 2000], 3, 2)).toBe(true);
    expect(pageAfterReached([0, 1000, 5000], 3, 2)).toBe(false);
    expect(pageAfterReached([0, 60_000, 61_000, 62_000], 3, 2)).toBe(true);
    expect(pageAfterReached([0, 1000], 3, 60)).toBe(false);
  });
});
