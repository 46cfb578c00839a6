import { z } from 'zod';
import type { Severity } from '../severity';
import { FORM_A_LIMITS } from './limits';
import { parseFormASeverity } from './severity';
import { storableField, storableObject } from './storable-fields';
import { storableText } from './storable-text';

// Form A (spec "Event payload, Form A") with the limits of limits.ts; unknown fields are ignored.
const text = (field: string, max: number) =>
  storableField(z.string({ message: `${field} must be a string` }).max(max, `${field} must be at most ${max} characters`), field);

const formASchema = z
  .object({
    title: text('title', FORM_A_LIMITS.title).optional(),
    message: text('message', FORM_A_LIMITS.message).optional(),
    severity: z.string({ message: 'severity must be a string' }).optional(),
    description: text('description', FORM_A_LIMITS.description).optional(),
    dedup_key: text('dedup_key', FORM_A_LIMITS.dedupKey).min(1, 'dedup_key must not be empty').optional(),
    source: text('source', FORM_A_LIMITS.source).optional(),
    metadata: storableObject(z.record(z.string(), z.unknown(), { message: 'metadata must be an object' }), 'metadata').optional(),
  })
  .refine((b) => Boolean(b.title?.trim() || b.message?.trim()), { message: 'at least one of title or message is required' });

/** A Form A event ready for routing, on the incident severity scale. */
export interface FormAEvent {
  title: string;
  message: string | null;
  description: string | null;
  severity: Severity;
  dedupKey: string | null;
  source: string | null;
  metadata: Record<string, unknown>;
}

export type FormAResult = { ok: true; event: FormAEvent } | { ok: false; message: string };

/** An event without a severity pages as MEDIUM, like a native payload without one (warning). */
export const DEFAULT_FORM_A_SEVERITY: Severity = 'MEDIUM';

/** Validates a parsed body; every failure is one readable message for a 400. */
export function parseFormA(body: unknown): FormAResult {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { ok: false, message: 'body must be a JSON object' };
  // Sized before the schema walks it: a metadata object of 40,000 keys is refused at once.
  if (metadataTooLarge((body as { metadata?: unknown }).metadata)) return { ok: false, message: METADATA_TOO_LARGE };
  const parsed = formASchema.safeParse(body);
  if (!parsed.success) {
    return { ok: false, message: parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ') };
  }
  const b = parsed.data;
  let severity: Severity = DEFAULT_FORM_A_SEVERITY;
  if (b.severity !== undefined) {
    const known = parseFormASeverity(b.severity);
    if (!known) return { ok: false, message: 'severity must be one of critical, high, error, medium, warning, low, info' };
    severity = known;
  }
  const metadata = b.metadata ?? {};
  // Cut from the message, the title may end in half a surrogate pair: storableText mends it.
  const title = b.title?.trim() || storableText((b.message as string).trim().split('\n')[0].slice(0, FORM_A_LIMITS.title));
  return {
    ok: true,
    event: {
      title,
      message: b.message ?? null,
      description: b.description ?? null,
      severity,
      dedupKey: b.dedup_key ?? null,
      source: b.source ?? null,
      metadata,
    },
  };
}

const METADATA_TOO_LARGE = `metadata must be at most ${FORM_A_LIMITS.metadataBytes / 1024} KiB of JSON`;

const metadataTooLarge = (metadata: unknown): boolean =>
  metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) && JSON.stringify(metadata).length > FORM_A_LIMITS.metadataBytes;
