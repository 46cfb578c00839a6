/**
 * The adversarial ingestion corpus (issue 21), one home for the property test, the integration
 * test and the bench: every target (native sender, Form A, Form B) × every string field its
 * parser reads × every shape, each case a body filled to a byte budget (512 KiB by default).
 * Cases are generated one at a time: the whole corpus at 512 KiB would not fit in memory.
 */
import { parseJsonText } from '../../../src/domain/ingest/json-text';
import { INGEST_LIMITS } from '../../../src/domain/ingest/limits';
import { planIngest, type IngestPlan } from '../../../src/domain/ingest/plan';
import { JSON_SHAPES, shapeText, TEXT_SHAPES, type HostileShape } from './shapes';
import { HOSTILE_TARGETS, type HostileTarget } from './targets';

export { HOSTILE_TARGETS, JSON_SHAPES, shapeText, TEXT_SHAPES, type HostileShape, type HostileTarget };

/** One adversarial request. */
export interface HostileCase {
  name: string;
  target: HostileTarget;
  /** The dotted path the shape was put at. */
  field: string;
  shape: HostileShape;
  /** The body as sent, `bytes` long in UTF-8. */
  raw: string;
  bytes: number;
}

const PLACEHOLDER = '__HOSTILE_FIELD__';

function setPath(body: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let at = body as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== 'object') at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys[keys.length - 1]] = value;
}

// The placeholder's JSON string, replaced by slicing: a fragment may hold `$` patterns.
function withFragment(body: Record<string, unknown>, path: string, fragment: string): string {
  setPath(body, path, PLACEHOLDER);
  const raw = JSON.stringify(body);
  const at = raw.indexOf(`"${PLACEHOLDER}"`);
  return raw.slice(0, at) + fragment + raw.slice(at + PLACEHOLDER.length + 2);
}

const fragmentOf = (shape: HostileShape, n: number): string => (shape.kind === 'text' ? JSON.stringify(shapeText(shape, n)) : shape.json(n));

/** The target's body with the JSON `fragment` at `field` (inside the embedded message when the target has one). */
function renderFragment(target: HostileTarget, field: string, fragment: string): string {
  if (!target.embeddedIn) return withFragment(target.base(), field, fragment);
  const outer = target.base();
  const inner = JSON.parse(outer[target.embeddedIn] as string) as Record<string, unknown>;
  outer[target.embeddedIn] = withFragment(inner, field, fragment);
  return JSON.stringify(outer);
}

/** The body with `shape` repeated `n` times at `field`. */
export const render = (target: HostileTarget, field: string, shape: HostileShape, n: number): string => renderFragment(target, field, fragmentOf(shape, n));

/** The body with these strings at these fields (the property test's random mixes). */
export function renderTexts(target: HostileTarget, texts: Record<string, string>): string {
  const entries = Object.entries(texts);
  let body = target.base();
  if (target.embeddedIn) {
    const inner = JSON.parse(body[target.embeddedIn] as string) as Record<string, unknown>;
    for (const [field, value] of entries) setPath(inner, field, value);
    body = { ...body, [target.embeddedIn]: JSON.stringify(inner) };
  } else {
    for (const [field, value] of entries) setPath(body, field, value);
  }
  return JSON.stringify(body);
}

const byteLength = (raw: string) => Buffer.byteLength(raw, 'utf8');

/** The case whose body is as close to `budget` bytes as the shape's unit allows, never over. */
export function hostileCase(target: HostileTarget, field: string, shape: HostileShape, budget: number = INGEST_LIMITS.bodyBytes): HostileCase {
  // Bodies grow about linearly with n from n = 1 (an empty JSON object or array is the odd one
  // out, and text chunks add their prefix and suffix now and then): estimate, then step back.
  const one = byteLength(render(target, field, shape, 1));
  const perUnit = Math.max(1, (byteLength(render(target, field, shape, 1001)) - one) / 1000);
  let n = Math.max(1, 1 + Math.floor((budget - one) / perUnit));
  let raw = render(target, field, shape, n);
  for (let over = byteLength(raw) - budget; over > 0 && n > 1; over = byteLength(raw) - budget) {
    n = Math.max(1, n - Math.ceil(over / perUnit));
    raw = render(target, field, shape, n);
  }
  return { name: `${target.name} ${field} ← ${shape.name}`, target, field, shape, raw, bytes: byteLength(raw) };
}

/** Where JSON-value shapes go: each field, and each object holding fields (labels, metadata, tags). */
export function jsonPlaces(target: HostileTarget): string[] {
  const parents = target.fields.map((f) => f.split('.').slice(0, -1).join('.')).filter(Boolean);
  return [...new Set([...target.fields, ...parents])];
}

/** Every (target, place, shape) of the corpus, without building a body. */
export function* corpusEntries(targets: readonly HostileTarget[] = HOSTILE_TARGETS): Generator<{ target: HostileTarget; field: string; shape: HostileShape }> {
  for (const target of targets) {
    for (const field of target.fields) for (const shape of TEXT_SHAPES) yield { target, field, shape };
    for (const field of jsonPlaces(target)) for (const shape of JSON_SHAPES) yield { target, field, shape };
  }
}

/** Every case of the corpus at `budget` bytes, built one at a time. */
export function* hostileCorpus(budget: number = INGEST_LIMITS.bodyBytes, targets?: readonly HostileTarget[]): Generator<HostileCase> {
  for (const { target, field, shape } of corpusEntries(targets)) yield hostileCase(target, field, shape, budget);
}

/**
 * What the API does with a body before it stores anything, minus I/O (the SNS signature check):
 * read the JSON (nesting checked first, src/domain/ingest/json-text.ts), then plan it. The
 * ingestion URL insists on an object or array; the receiver lets Form B say what is wrong.
 */
export function planBody(raw: string, target: Pick<HostileTarget, 'headers' | 'form'>): IngestPlan {
  const parsed = parseJsonText(raw, { objectOrArray: target.form === 'A' });
  return parsed.ok ? planIngest(parsed.value, target.headers, target.form) : parsed;
}
