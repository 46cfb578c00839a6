/**
 * PagerDuty Events API v2, as a sender speaks it to Klaxon (docs/compat-intake.md): the body of
 * `POST /v2/enqueue` turned into one ingestion item, or the list of errors PagerDuty would answer.
 * Pure: the route (src/integrations/pagerduty/intake.ts) finds the source and commits.
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { IngestItem } from '../../domain/ingest/plan';
import { INGEST_LIMITS } from '../../domain/ingest/limits';
import { storableJson, storableText } from '../../domain/ingest/storable-text';
import type { Severity } from '../../domain/severity';

/** The `sender` of the alerts it stores: a resolve only resolves alerts of the same sender. */
export const PAGERDUTY_SENDER = 'pagerduty-events-v2';

/** What the timeline says after the move a sender's acknowledge makes. */
export const PAGERDUTY_ACK_DETAIL = 'via PagerDuty Events API';

/** Field limits: PagerDuty's where it documents one (summary, dedup_key), else ours (docs/compat-intake.md). */
export const EVENTS_V2_LIMITS = {
  summary: 1024,
  dedupKey: INGEST_LIMITS.dedupKey,
  text: 1024,
  url: 2048,
  links: 50,
  images: 50,
  timestamp: 64,
  customDetailsBytes: 64 * 1024,
} as const;

const EVENT_ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];

/** PagerDuty's four severities on the incident scale. */
const SEVERITY: Readonly<Record<string, Severity>> = { critical: 'CRITICAL', error: 'HIGH', warning: 'MEDIUM', info: 'INFO' };

// Messages name their field as PagerDuty's do ('payload.summary'); {field} is filled from the issue's path.
const FIELD = '{field}';
const MISSING = `'${FIELD}' is missing or blank`;
const NOT_A_STRING = `'${FIELD}' is invalid (must be a string)`;
const tooLong = (max: number) => `'${FIELD}' is too long (maximum is ${max} characters)`;

const text = (max: number) => z.string({ error: (iss) => (iss.input === undefined || iss.input === null ? MISSING : NOT_A_STRING) }).max(max, tooLong(max));
const required = (max: number) => text(max).refine((s) => s.trim() !== '', MISSING);
/** Optional as senders send it: absent, null, or a string (Alertmanager sends empty ones). */
const optional = (max: number) => text(max).nullish();

const link = z.object({ href: required(EVENTS_V2_LIMITS.url), text: optional(EVENTS_V2_LIMITS.text) }, { error: `'${FIELD}' is invalid (must be an object)` });
const image = z.object(
  { src: required(EVENTS_V2_LIMITS.url), href: optional(EVENTS_V2_LIMITS.url), alt: optional(EVENTS_V2_LIMITS.text) },
  { error: `'${FIELD}' is invalid (must be an object)` },
);
// Counted before any entry is read: 40,000 empty links are one error, not 40,000.
const list = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(z.unknown(), { error: `'${FIELD}' is invalid (must be an array)` })
    .max(max, `'${FIELD}' has too many entries (maximum is ${max})`)
    .pipe(z.array(item))
    .nullish();

const envelope = z.object(
  {
    // Its length only: a key of the right length that names no source is the caller's "Invalid routing key".
    routing_key: required(EVENTS_V2_LIMITS.text).refine(
      (k) => k.trim() === '' || k.length === 32 || k.length === 36,
      `Length of '${FIELD}' is incorrect (should be 32 characters)`,
    ),
    event_action: z
      .string({ error: (iss) => (iss.input === undefined || iss.input === null ? MISSING : NOT_A_STRING) })
      .refine((a) => a.trim() !== '', MISSING)
      .refine(
        (a) => (EVENT_ACTIONS as readonly string[]).includes(a) || a.trim() === '',
        `'${FIELD}' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')`,
      ),
    dedup_key: optional(EVENTS_V2_LIMITS.dedupKey),
    client: optional(EVENTS_V2_LIMITS.text),
    client_url: optional(EVENTS_V2_LIMITS.url),
    links: list(link, EVENTS_V2_LIMITS.links),
    images: list(image, EVENTS_V2_LIMITS.images),
  },
  { error: 'the event must be a JSON object' },
);

const payload = z.object(
  {
    summary: required(EVENTS_V2_LIMITS.summary),
    source: required(EVENTS_V2_LIMITS.text),
    severity: z
      .string({ error: (iss) => (iss.input === undefined || iss.input === null ? MISSING : NOT_A_STRING) })
      .refine((s) => s.trim() !== '', MISSING)
      // Any case: PagerDuty's own senders send lower case; a sender shouting is still understood.
      .refine(
        (s) => s.trim() === '' || Object.hasOwn(SEVERITY, s.trim().toLowerCase()),
        `'${FIELD}' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')`,
      ),
    timestamp: optional(EVENTS_V2_LIMITS.timestamp),
    component: optional(EVENTS_V2_LIMITS.text),
    group: optional(EVENTS_V2_LIMITS.text),
    class: optional(EVENTS_V2_LIMITS.text),
    custom_details: z
      .unknown()
      .refine(
        (d) => d === undefined || JSON.stringify(d).length <= EVENTS_V2_LIMITS.customDetailsBytes,
        `'${FIELD}' is too large (maximum is ${EVENTS_V2_LIMITS.customDetailsBytes / 1024} KiB of JSON)`,
      )
      .optional(),
  },
  { error: (iss) => (iss.input === undefined || iss.input === null ? MISSING : `'${FIELD}' is invalid (must be an object)`) },
);

/** A valid event: what it asks (its routing_key, well formed, is for the caller to look up). */
export interface EventsV2Event {
  action: EventAction;
  /** As sent; null for a trigger without one (the caller makes one: eventItem's `dedupKey`). */
  dedupKey: string | null;
  /** The item to ingest, but for the dedup key of a trigger that came without one. */
  item: (dedupKey: string) => IngestItem;
}

export type EventsV2Result = { ok: true; event: EventsV2Event } | { ok: false; errors: string[] };

/**
 * Reads an Events API v2 body. Every problem is reported at once, each naming its field as
 * PagerDuty does (`'payload.summary' is missing or blank`). The payload is read for triggers only:
 * PagerDuty ignores it on acknowledge and resolve, whose dedup_key is required instead.
 */
export function parseEventsV2(body: unknown): EventsV2Result {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { ok: false, errors: ['the event must be a JSON object'] };
  const top = envelope.safeParse(body);
  const errors = top.success ? [] : errorsOf(top.error);
  const action = (body as { event_action?: unknown }).event_action;
  const dedupKey = (body as { dedup_key?: unknown }).dedup_key;
  let details: z.infer<typeof payload> | undefined;
  if (action === 'trigger') {
    const read = payload.safeParse((body as { payload?: unknown }).payload);
    if (read.success) details = read.data;
    else errors.push(...errorsOf(read.error, ['payload']));
  } else if (action === 'acknowledge' || action === 'resolve') {
    // A dedup_key of another type is already reported as invalid.
    const blank = typeof dedupKey === 'string' ? dedupKey.trim() === '' : dedupKey === undefined || dedupKey === null;
    if (blank) errors.push(MISSING.replace(FIELD, 'dedup_key'));
  }
  if (!top.success || errors.length) return { ok: false, errors };
  const e = top.data;
  const event = {
    action: e.event_action as EventAction,
    // Made storable as every native identifier is (a NUL cannot be stored): the same text always gives the same key.
    dedupKey: e.dedup_key ? storableText(e.dedup_key) : null,
  };
  return { ok: true, event: { ...event, item: (key) => itemOf(event.action, key, e, details) } };
}

/** A dedup key for a trigger sent without one: random, or, for a request with an Idempotency-Key, the same for each replay of it. */
export function newDedupKey(sourceId: string, idempotencyKey?: string): string {
  if (idempotencyKey === undefined) return randomBytes(16).toString('hex');
  return createHash('sha256').update(`${sourceId}\u0000${idempotencyKey}`).digest('hex').slice(0, 32);
}

function itemOf(action: EventAction, dedupKey: string, e: z.infer<typeof envelope>, p: z.infer<typeof payload> | undefined): IngestItem {
  const common = { dedupKey, sender: PAGERDUTY_SENDER };
  if (action !== 'trigger' || !p) {
    const quiet = { title: '', message: null, description: null, severity: 'INFO' as const, metadata: {} };
    return { action, ...quiet, ...common, ...(action === 'acknowledge' ? { detail: PAGERDUTY_ACK_DETAIL } : {}) };
  }
  const summary = storableText(p.summary.trim());
  // The title is the summary's first line, cut to the column; the whole summary stays the alert's message.
  const title = storableText(summary.split('\n')[0].slice(0, INGEST_LIMITS.title));
  const metadata = storableJson(
    present({
      source: p.source,
      component: p.component,
      group: p.group,
      class: p.class,
      timestamp: p.timestamp,
      custom_details: p.custom_details,
      client: e.client,
      client_url: e.client_url,
      links: e.links?.length ? e.links : undefined,
      images: e.images?.length ? e.images : undefined,
    }),
  );
  return {
    action,
    title,
    message: summary === title ? null : summary,
    description: null,
    severity: SEVERITY[p.severity.trim().toLowerCase()],
    ...common,
    metadata,
  };
}

/** The entries that were sent (neither absent, null nor empty). */
const present = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null && v !== ''));

/** Issue messages with their field named as PagerDuty names it: `payload.summary`, `links[0].href`. */
function errorsOf(error: z.ZodError, prefix: Array<string | number> = []): string[] {
  return error.issues.map((issue) => issue.message.replaceAll(FIELD, fieldName([...prefix, ...issue.path])));
}

const fieldName = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
