import { z } from 'zod';
import type { Severity } from '../severity';
import { FORM_B_LIMITS } from './limits';
import { storableField, storableObject } from './storable-fields';

// Form B (spec "Event payload, Form B"; docs/api/webhooks.md) with the limits of limits.ts; unknown fields are ignored.

/** Form B's three severities on the incident scale; without one, `info` (email only). */
const FORM_B_SEVERITY: Readonly<Record<string, Severity>> = { critical: 'CRITICAL', warning: 'MEDIUM', info: 'INFO' };
export const FORM_B_SEVERITIES = Object.keys(FORM_B_SEVERITY);

const text = (field: string, max: number) =>
  storableField(z.string({ message: `${field} must be a string` }).max(max, `${field} must be at most ${max} characters`), field);

const tagValue = z.union([z.string(), z.number(), z.boolean()], { message: 'each tag must be a string, number or boolean' }).transform(String);

const formBSchema = z.object({
  title: text('title', FORM_B_LIMITS.title).refine((t) => t.trim().length > 0, 'title must not be empty'),
  message: text('message', FORM_B_LIMITS.message).optional(),
  severity: z
    .string({ message: 'severity must be a string' })
    .transform((s) => s.trim().toLowerCase())
    .refine((s) => s in FORM_B_SEVERITY, `severity must be one of ${FORM_B_SEVERITIES.join(', ')}`)
    .optional(),
  source: text('source', FORM_B_LIMITS.source).optional(),
  dedup_key: text('dedup_key', FORM_B_LIMITS.dedupKey).min(1, 'dedup_key must not be empty').optional(),
  tags: storableObject(
    z
      .record(z.string().max(FORM_B_LIMITS.tagKey, `tag names must be at most ${FORM_B_LIMITS.tagKey} characters`), tagValue, {
        message: 'tags must be an object of key-value pairs',
      })
      .refine((t) => Object.values(t).every((v) => v.length <= FORM_B_LIMITS.tagValue), `tag values must be at most ${FORM_B_LIMITS.tagValue} characters`),
    'tags',
  ).optional(),
  url: text('url', FORM_B_LIMITS.url)
    .refine((u) => /^https?:\/\//i.test(u) && URL.canParse(u), 'url must be an http(s) URL')
    .optional(),
});

/** A Form B event ready for routing. */
export interface FormBEvent {
  title: string;
  message: string | null;
  severity: Severity;
  source: string | null;
  dedupKey: string | null;
  tags: Record<string, string> | null;
  url: string | null;
}

export type FormBResult = { ok: true; event: FormBEvent } | { ok: false; message: string };

/** Validates a parsed body; every failure is one readable message for a 400. */
export function parseFormB(body: unknown): FormBResult {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { ok: false, message: 'body must be a JSON object' };
  // Counted before the schema reads every tag: 40,000 of them are refused at once.
  if (tooManyTags((body as { tags?: unknown }).tags)) return { ok: false, message: TOO_MANY_TAGS };
  const parsed = formBSchema.safeParse(body);
  if (!parsed.success) {
    return { ok: false, message: parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ') };
  }
  const b = parsed.data;
  return {
    ok: true,
    event: {
      title: b.title.trim(),
      message: b.message?.trim() || null,
      severity: FORM_B_SEVERITY[b.severity ?? 'info'],
      source: b.source?.trim() || null,
      dedupKey: b.dedup_key ?? null,
      tags: b.tags && Object.keys(b.tags).length ? b.tags : null,
      url: b.url ?? null,
    },
  };
}

const TOO_MANY_TAGS = `tags: at most ${FORM_B_LIMITS.tags} tags`;

const tooManyTags = (tags: unknown): boolean =>
  tags !== null && typeof tags === 'object' && !Array.isArray(tags) && Object.keys(tags).length > FORM_B_LIMITS.tags;
