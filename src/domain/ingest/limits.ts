/**
 * Every size limit of alert ingestion, in one place: the ingestion URL and the API-key surface's
 * receiver enforce the same ones. The rule they serve: text is capped before anything parses
 * it, so no request body (at most `bodyBytes`) can hold the event loop that serves every tenant.
 *
 * * Form A and Form B fields longer than their limit are refused: 400 naming the field.
 * * A native sender cannot be asked to change its payload, so its text is cut instead: every
 *   string a native parser reads is cut to `nativeField` characters before it is trimmed or
 *   parsed, only the first `nativeEntries` of a list or label set are read, and what an event
 *   keeps is cut to the stored limits below.
 */
export const INGEST_LIMITS = {
  /** A request body, in bytes: 413 above. */
  bodyBytes: 512 * 1024,
  /** Objects and arrays nested in a body (or in an SNS message): 400 above, checked before JSON.parse. */
  jsonDepth: 64,
  /** What a native parser reads of any one string field (titles, messages, labels, ids), in characters. */
  nativeField: 20_000,
  /** Entries a native parser reads of any one object or array (labels, annotations, names, configuration items). */
  nativeEntries: 256,
  /** What an event keeps, in characters (`title` and `dedupKey` are also the database columns' sizes). */
  title: 255,
  message: 10_000,
  description: 20_000,
  dedupKey: 255,
  source: 255,
  /** Form A `metadata`, as JSON text. */
  metadataBytes: 64 * 1024,
} as const;

/** Form A (spec "Event payload, Form A"): longer fields are refused. */
export const FORM_A_LIMITS = {
  title: INGEST_LIMITS.title,
  message: INGEST_LIMITS.message,
  description: INGEST_LIMITS.description,
  dedupKey: INGEST_LIMITS.dedupKey,
  source: INGEST_LIMITS.source,
  metadataBytes: INGEST_LIMITS.metadataBytes,
} as const;

/** Form B (spec "Event payload, Form B"): Form A's, and its tags and link. */
export const FORM_B_LIMITS = { ...FORM_A_LIMITS, tags: 50, tagKey: 100, tagValue: 1000, url: 2048 } as const;

/** The body limit as koa-body and raw-body spell it. */
export const BODY_LIMIT = `${INGEST_LIMITS.bodyBytes / 1024}kb`;

/** The 413 message of both ingestion surfaces. */
export const BODY_TOO_LARGE = `request body is larger than ${INGEST_LIMITS.bodyBytes / 1024} KiB`;

/**
 * The SNS signing certificates a process keeps (src/services/ingest/sns.ts). They are keyed by
 * the message's SigningCertURL, which the sender chooses, so the cache is bounded: the least
 * recently used goes first, none is kept longer than `ttlMs`, and none larger than `bytes` is
 * read (AWS's are about 2 KiB).
 */
export const SNS_CERTIFICATE_LIMITS = { entries: 50, ttlMs: 6 * 60 * 60 * 1000, bytes: 16 * 1024 } as const;
