import { DateTime } from 'luxon';
import { z } from 'zod';
import { formatPath } from '../issue-path';
import { isUuid } from '../ids';
import { ScheduleInputError } from './errors';
import { hhmm, notAnObject } from './fields';
import { currentRestriction, restrictionSchema, type LegacyWindow, type Restriction } from './restrictions';

/** Rotation units, all counted on the schedule's local clock (a day is a calendar day). */
export const ROTATION_UNITS = ['hours', 'days', 'weeks'] as const;
export type RotationUnit = (typeof ROTATION_UNITS)[number];

/** One rotation layer, as stored: `users` are user ids once the service has resolved emails. */
export interface Layer {
  name: string;
  users: string[];
  rotation: { unit: RotationUnit; length: number };
  /** Local wall-clock time of every handoff, "HH:mm". */
  handoff_time: string;
  /** Local date from which the rotation counts: its first shift starts there at handoff_time. */
  start: string;
  /** When the layer applies; outside every window it gives nobody. None: always. */
  restrictions?: Restriction[];
}

/** A layer as a row may hold it: written before weekly windows, its restrictions may be `{from, to}`. */
export type StoredLayer = Omit<Layer, 'restrictions'> & { restrictions?: Array<Restriction | LegacyWindow> };

export const LIMITS = { layers: 20, usersPerLayer: 100, rotationLength: 1000, restrictions: 10 } as const;

const isDate = (s: string) => DateTime.fromISO(s, { zone: 'utc' }).isValid;

const userRef = z
  .string({ message: 'must be an email or a user id' })
  .trim()
  .refine((s) => isUuid(s) || z.email().safeParse(s).success, 'must be an email or a user id (UUID)');

// "2026-11-01", or "2026-11-01T09:00" which also sets the handoff time.
const start = z
  .string({ message: 'must be a local date "YYYY-MM-DD"' })
  .regex(
    /^\d{4}-\d{2}-\d{2}(T([01]\d|2[0-3]):[0-5]\d)?$/,
    'must be a local date "YYYY-MM-DD" or date-time "YYYY-MM-DDTHH:mm" (no offset: it is in the schedule\'s time zone)',
  )
  .refine((s) => isDate(s), 'is not a real calendar date');

const layerSchema = z
  .strictObject(
    {
      name: z.string({ message: 'must be a string' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
      users: z
        .array(userRef, { message: 'must be a list of users' })
        .min(1, 'must name at least one user')
        .max(LIMITS.usersPerLayer, `must name at most ${LIMITS.usersPerLayer} users`),
      rotation: z.strictObject(
        {
          unit: z.enum(ROTATION_UNITS, { message: `must be one of ${ROTATION_UNITS.join(', ')}` }),
          length: z
            .number({ message: 'must be a number' })
            .int('must be a whole number')
            .min(1, 'must be at least 1')
            .max(LIMITS.rotationLength, `must be at most ${LIMITS.rotationLength}`),
        },
        notAnObject('must be an object {"unit", "length"}'),
      ),
      handoff_time: hhmm.optional(),
      start,
      restrictions: z
        .array(restrictionSchema, { message: 'must be a list of {"type", "start_day"?, "start_time", "duration_seconds"} windows' })
        .max(LIMITS.restrictions, `must have at most ${LIMITS.restrictions} windows`)
        .optional(),
    },
    notAnObject('must be an object'),
  )
  .refine((l) => !(l.start.includes('T') && l.handoff_time && l.start.slice(11) !== l.handoff_time), {
    message: 'handoff_time disagrees with the time in start',
    path: ['handoff_time'],
  });

const layersSchema = z
  .array(layerSchema, { message: 'must be a JSON array of layers' })
  .min(1, 'must have at least one layer')
  .max(LIMITS.layers, `must have at most ${LIMITS.layers} layers`);

/**
 * Validates layers and normalises them: a missing name becomes "layer N", a date-time start is
 * split into start + handoff_time, handoff_time defaults to midnight, an old `{from, to}` window
 * becomes a daily restriction. Users are kept as given.
 */
export function parseLayers(input: unknown): Layer[] {
  const parsed = layersSchema.safeParse(input);
  if (!parsed.success) {
    throw new ScheduleInputError(parsed.error.issues.map((i) => `${formatPath(['layers', ...i.path])}: ${i.message}`).join('; '));
  }
  return parsed.data.map((l, i) => ({
    name: l.name ?? `layer ${i + 1}`,
    users: l.users,
    rotation: l.rotation,
    handoff_time: l.start.includes('T') ? l.start.slice(11) : (l.handoff_time ?? '00:00'),
    start: l.start.slice(0, 10),
    ...(l.restrictions ? { restrictions: l.restrictions } : {}),
  }));
}

/** Stored layers in today's shape, without checking them again (they were checked when written). */
export const currentLayers = (layers: readonly StoredLayer[]): Layer[] =>
  layers.map(({ restrictions, ...l }) => (restrictions ? { ...l, restrictions: restrictions.map(currentRestriction) } : l));
