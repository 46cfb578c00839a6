/**
 * The bodies and answers of a responder's actions (docs/responding.md), shared by the dashboard's
 * `/api` and the customer API v1, so both surfaces validate them alike.
 */
import { z } from 'zod';
import { NOTE_MAX_CHARS, RESPONDER_MESSAGE_MAX_CHARS, RESPONDER_TARGETS_MAX } from '../../src/contracts/workflows';
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

/** Who to page: `{type: user|team|schedule, id}`, 1 to 20 of them, and an optional message. */
export const RespondersBody = z
  .object({
    targets: z
      .array(
        z
          .object({
            type: z.enum(['user', 'team', 'schedule'], { message: 'targets[].type must be user, team or schedule' }),
            id: z.uuid('targets[].id must be a UUID'),
          })
          .strict(),
        { message: 'targets is required (a list of {type, id})' },
      )
      .min(1, 'targets must name at least one user, team or schedule')
      .max(RESPONDER_TARGETS_MAX, `targets may name at most ${RESPONDER_TARGETS_MAX}`),
    message: z.string().max(RESPONDER_MESSAGE_MAX_CHARS, `message must be at most ${RESPONDER_MESSAGE_MAX_CHARS} characters`).optional(),
  })
  .strict();
