/** Night-time pages: those that woke someone, by the clock of the person paged. Pure. */

/** Night starts at 22:00 local time… */
export const NIGHT_STARTS_HOUR = 22;
/** …and ends at 07:00 (exclusive). */
export const NIGHT_ENDS_HOUR = 7;

/** True when a local hour (0–23) is night: 22:00–06:59. */
export const isNightHour = (hour: number): boolean => hour >= NIGHT_STARTS_HOUR || hour < NIGHT_ENDS_HOUR;

/** The zone a person's pages are read in: theirs, else the workspace's default. */
export const personZone = (userZone: string | null, fallback: string): string => userZone ?? fallback;
