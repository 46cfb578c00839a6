import { z } from 'zod';

/** Field schemas the layer and restriction schemas share. */

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A local wall-clock time of day, "HH:mm". */
export const hhmm = z.string({ message: 'must be a time "HH:mm"' }).regex(HH_MM, 'must be a local time "HH:mm" (00:00 to 23:59)');

/** Minutes after midnight of a time hhmm accepted. */
export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

// Only a wrong type gets our wording; unknown keys keep zod's "Unrecognized key" message.
export const notAnObject = (text: string) => ({ error: (issue: { code?: string }) => (issue.code === 'invalid_type' ? text : undefined) });
