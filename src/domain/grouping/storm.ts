import { z } from 'zod';

/** A source's storm guard: past `max_new_incidents` new incidents within `within_seconds`, its new alerts join one storm incident until quiet for `quiet_seconds`. */
export interface StormSetting {
  max_new_incidents: number;
  within_seconds: number;
  quiet_seconds: number;
}

/** The guard every source has unless STORM_GUARD or the source says otherwise (design §26). */
export const DEFAULT_STORM: StormSetting = { max_new_incidents: 50, within_seconds: 60, quiet_seconds: 120 };

const whole = (field: string, max: number) =>
  z
    .number({ message: `${field} must be a whole number` })
    .int(`${field} must be a whole number`)
    .min(1, `${field} must be at least 1`)
    .max(max, `${field} must be at most ${max}`);

/** A source's `storm` as the API takes it: the three numbers, or null (off). */
export const stormSettingSchema = z
  .object(
    {
      max_new_incidents: whole('storm.max_new_incidents', 10_000),
      within_seconds: whole('storm.within_seconds', 86_400),
      quiet_seconds: whole('storm.quiet_seconds', 86_400),
    },
    { message: 'storm must be an object or null' },
  )
  .strict()
  .nullable();

/** STORM_GUARD: `max/within/quiet` (e.g. `50/60/120`) or `off`; null means off. Throws on anything else. */
export function parseStormGuardEnv(value: string | undefined): StormSetting | null {
  if (value === undefined || value.trim() === '') return DEFAULT_STORM;
  if (value.trim() === 'off') return null;
  const parts = value.trim().split('/');
  const nums = parts.map((p) => (/^\d{1,6}$/.test(p) ? Number(p) : NaN));
  if (parts.length !== 3 || nums.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`STORM_GUARD must be max/within/quiet (e.g. 50/60/120) or off, not "${value}"`);
  }
  return { max_new_incidents: nums[0], within_seconds: nums[1], quiet_seconds: nums[2] };
}

/** The guard a source runs under: its own, none, or the default. */
export function effectiveStorm(mode: string, own: StormSetting | null, fallback: StormSetting | null): StormSetting | null {
  if (mode === 'off') return null;
  if (mode === 'custom') return own;
  return fallback;
}
