/**
 * What an adversary puts in a field: long runs of the characters careless regexes and parsers
 * stumble on (issue 21: `/\s*%%%$/` took minutes on a run of blanks). Each shape grows by
 * repeating one unit, so a corpus case can fill a body to the byte.
 */
import { INGEST_LIMITS } from '../../../src/domain/ingest/limits';

/** Text put in a string field: `prefix + unit × n + suffix`. */
export interface TextShape {
  kind: 'text';
  name: string;
  prefix: string;
  unit: string;
  suffix: string;
}

/** A JSON value put in place of a field or of the object holding it, n units big. */
export interface JsonShape {
  kind: 'json';
  name: string;
  json(n: number): string;
}

export type HostileShape = TextShape | JsonShape;

const text = (name: string, prefix: string, unit: string, suffix = ''): TextShape => ({ kind: 'text', name, prefix, unit, suffix });

/**
 * The shape's text with `n` units. Parsers read only the first INGEST_LIMITS.nativeField
 * characters of a field, so the text is `prefix + units + suffix` chunks no longer than that:
 * whatever a parser reads of it is still a whole hostile run, suffix included.
 */
export function shapeText(shape: TextShape, n: number): string {
  const perChunk = Math.max(1, Math.floor((INGEST_LIMITS.nativeField - shape.prefix.length - shape.suffix.length) / shape.unit.length));
  const chunk = (units: number) => shape.prefix + shape.unit.repeat(units) + shape.suffix;
  const rest = n % perChunk;
  return chunk(perChunk).repeat(Math.floor(n / perChunk)) + (rest > 0 ? chunk(rest) : '');
}

/** Every text shape, the issue's own first. */
export const TEXT_SHAPES: readonly TextShape[] = [
  text('blank run', 'x', ' ', 'x'),
  text('mixed blanks', 'x', ' \t\n\u00a0\u2028', 'x'),
  text('%%% fences', '%%%', '%%% ', 'x'),
  text('% run', '', '%', 'x'),
  text('[ run', '', '['),
  text('{ run', '', '{'),
  text('nested brackets', '', '[{', 'x'),
  text('title prefixes', '', '[P1] [x on {'),
  text('scope openings', '[a', ' on {x}'),
  text('scope closings', '[a on {', '}'),
  text('macro', '{$', 'A', '.'),
  text('letter run', '', 'a', '!'),
  text('digit run', '', '1', 'x'),
  text('dash run', 'x', '-', 'x'),
  text('slash run', 'https://x', '/', 'x'),
  text('< run', '', '<'),
  text('re- run', '', 're-', 'x'),
  text('NUL run', '', '\u0000'),
  text('lone surrogates', '', '\ud800'),
  text('emoji run', '', '\u{1F525}'),
];

// Six-digit keys keep every unit the same size, so the body grows linearly with n.
const key = (i: number) => `"k${String(i).padStart(6, '0')}":1`;

/** Every JSON-value shape: deep nesting and very wide objects and arrays. */
export const JSON_SHAPES: readonly JsonShape[] = [
  { kind: 'json', name: 'deep arrays', json: (n) => '['.repeat(n) + ']'.repeat(n) },
  { kind: 'json', name: 'deep objects', json: (n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n) },
  { kind: 'json', name: 'many keys', json: (n) => `{${Array.from({ length: n }, (_, i) => key(i)).join(',')}}` },
  { kind: 'json', name: 'long array', json: (n) => `[${Array(n).fill('"a"').join(',')}]` },
];
