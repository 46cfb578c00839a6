/**
 * The bodies and answers of a responder's actions (docs/responding.md), shared by the dashboard's
 * `/api` and the customer API v1, so both surfaces validate them alike.
 */
import { z } from 'zod';
import { NOTE_MAX_CHARS } from '../../workflows/definitions';
import { SNOOZE_MINUTES } from '../../src/domain/incident-lifecycle';

export const NoteBody = z
  .object({
    text: z
      .string({ message: 'text is required (the note, up to 10000 characters)' })
      .max(NOTE_MAX_CHARS, `text must be at most ${NOTE_MAX_CHARS} characters`)
      .refine((t) => t.trim().length > 0, 'text must not be empty'),
  })
  .strict();

export const SnoozeBody = z
  .object({
    minutes: z
      .number({ message: 'minutes is required (a whole number, 1 to 1440)' })
      .int('minutes must be a whole number')
      .min(SNOOZE_MINUTES.min, `minutes must be at least ${SNOOZE_MINUTES.min}`)
      .max(SNOOZE_MINUTES.max, `minutes must be at most ${SNOOZE_MINUTES.max}`),
  })
  .strict();

/** A responder's entry as the timeline shows it (the answer to a note, a snooze, …). */
export const ResponderEntrySchema = z.object({
  seq: z.number().int(),
  type: z.enum(['note', 'snooze', 'responders_added', 'reassigned', 'merged']),
  at: z.iso.datetime(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()),
});
