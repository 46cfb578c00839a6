/**
 * A what-if answer within WHAT_IF_ANSWER.maxBytes (docs/what-if.md, "Bounds"): everything in one
 * answer, oldest first, when it fits; otherwise the totals and the incidents that differ first,
 * the rest through `next_cursor`. A cursor carries where the next answer starts, the replay's
 * pinned "now" (so every answer replays the same instants) and a digest of the request it
 * belongs to. No I/O.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { invalid } from '../errors';

export const WHAT_IF_ANSWER = {
  /** The whole answer, envelope included. */
  maxBytes: 5 * 1024 * 1024,
  /** One incident's JSON at most: a bigger one stops the replay before it (it would fit in no answer). */
  maxIncidentBytes: 4 * 1024 * 1024,
  /** The per-person totals at most (the most-paged kept). */
  maxTotalsBytes: 512 * 1024,
  /** Kept for the envelope (`success`, `message`) and the answer's other fields. */
  reserveBytes: 8 * 1024,
} as const;

/** Where the next answer of a split what-if starts, and the instant its replay is pinned to. */
export interface WhatIfCursor {
  offset: number;
  nowMs: number;
}

const CursorSchema = z.object({ o: z.number().int().min(0), n: z.number().int().min(0), d: z.string().length(16) }).strict();
/** How far ahead of this process's clock a cursor's "now" may be. */
const CLOCK_SKEW_MS = 5 * 60_000;
const CURSOR_MISMATCH = 'cursor: must be the next_cursor of an earlier answer to this same request (policy, service_id, from, to)';

/** What a cursor is bound to: the request's policy, service and range, hashed. */
export const requestDigest = (request: unknown): string => createHash('sha256').update(JSON.stringify(request)).digest('hex').slice(0, 16);

export const encodeCursor = (cursor: WhatIfCursor, digest: string): string =>
  Buffer.from(JSON.stringify({ o: cursor.offset, n: cursor.nowMs, d: digest })).toString('base64url');

/** The cursor a request carries, checked against the request it came with (400 naming `cursor` otherwise). */
export function decodeCursor(text: string, digest: string, nowMs: number): WhatIfCursor {
  let parsed: z.infer<typeof CursorSchema>;
  try {
    parsed = CursorSchema.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw invalid(CURSOR_MISMATCH);
  }
  // Another API process may have made it: its clock may run a little ahead of this one's.
  if (parsed.d !== digest || parsed.n > nowMs + CLOCK_SKEW_MS) throw invalid(CURSOR_MISMATCH);
  return { offset: parsed.o, nowMs: parsed.n };
}

/** An incident's answer as JSON text, that text's bytes, and whether it would page differently. */
export interface SizedIncident {
  text: string;
  bytes: number;
  differs: boolean;
}

/**
 * The incidents of this answer: all of them in replay order (oldest first) when they fit in
 * `budgetBytes`; otherwise, in the order differing first then the others (each oldest first),
 * those from `offset` that fit, and the offset the next answer starts at (null: none left).
 */
export function answerIncidents(sized: readonly SizedIncident[], offset: number, budgetBytes: number): { incidents: SizedIncident[]; next: number | null } {
  const commas = (n: number) => Math.max(0, n - 1);
  const total = sized.reduce((sum, s) => sum + s.bytes, 0) + commas(sized.length);
  if (total <= budgetBytes && offset === 0) return { incidents: [...sized], next: null };
  const ordered = [...sized.filter((s) => s.differs), ...sized.filter((s) => !s.differs)];
  const taken: SizedIncident[] = [];
  let used = 0;
  let i = offset;
  for (; i < ordered.length; i++) {
    const cost = ordered[i].bytes + (taken.length ? 1 : 0);
    if (used + cost > budgetBytes && taken.length > 0) break;
    taken.push(ordered[i]);
    used += cost;
  }
  return { incidents: taken, next: i < ordered.length ? i : null };
}

/** The totals that fit in WHAT_IF_ANSWER.maxTotalsBytes (they come sorted most-paged first), and whether some were left out. */
export function answerTotals<T>(totals: readonly T[]): { totals: T[]; cut: boolean } {
  let used = 2;
  const kept: T[] = [];
  for (const t of totals) {
    const cost = Buffer.byteLength(JSON.stringify(t)) + 1;
    if (used + cost > WHAT_IF_ANSWER.maxTotalsBytes) return { totals: kept, cut: true };
    kept.push(t);
    used += cost;
  }
  return { totals: kept, cut: false };
}
