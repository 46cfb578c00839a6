import { parse, type Filter } from 'scim2-parse-filter';
import { isUuid } from '../../domain/ids';
import { invalidFilter } from './errors';

/**
 * SCIM filters (RFC 7644 §3.4.2.2) as SQL: parsed by scim2-parse-filter, then mapped, attribute by
 * attribute, onto an allowlist of column expressions. Values only ever travel as bindings.
 */

/** A WHERE fragment and its bindings. */
export interface SqlCondition {
  sql: string;
  bindings: Array<string | boolean>;
}

/** A filterable attribute: its column expression (a constant) and how it compares. */
export type FilterAttribute =
  | { type: 'string'; column: string; caseExact: boolean }
  | { type: 'boolean'; column: string }
  | { type: 'id'; column: string }
  /** `members.value eq "<id>"`: a subquery with one `?` for the id. */
  | { type: 'contains_id'; sql: string };

export const MAX_FILTER_LENGTH = 1000;
const MAX_FILTER_TERMS = 20;

const SCHEMA_URN_PREFIX = 'urn:ietf:params:scim:schemas:core:2.0:';

/** Attribute names are case-insensitive; a fully qualified name (`urn:…:User:userName`) names the same attribute. */
function attributeKey(attrPath: string): string {
  const lower = attrPath.toLowerCase();
  if (!lower.startsWith(SCHEMA_URN_PREFIX)) return lower;
  const rest = lower.slice(SCHEMA_URN_PREFIX.length);
  const colon = rest.indexOf(':');
  return colon === -1 ? rest : rest.slice(colon + 1);
}

/** LIKE's wildcards in a value are literal. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

const NEVER: SqlCondition = { sql: 'false', bindings: [] };

function stringCondition(attr: { column: string; caseExact: boolean }, op: string, value: unknown, name: string): SqlCondition {
  const col = attr.caseExact ? attr.column : `lower(${attr.column})`;
  if (op === 'pr') return { sql: `(${attr.column} is not null and ${attr.column} <> '')`, bindings: [] };
  if (typeof value !== 'string') throw invalidFilter(`${name} compares with a string in quotes`);
  const v = attr.caseExact ? value : value.toLowerCase();
  switch (op) {
    case 'eq':
      return { sql: `${col} = ?`, bindings: [v] };
    case 'ne':
      return { sql: `${col} is distinct from ?`, bindings: [v] };
    case 'co':
      return { sql: `${col} like ? escape '\\'`, bindings: [`%${escapeLike(v)}%`] };
    case 'sw':
      return { sql: `${col} like ? escape '\\'`, bindings: [`${escapeLike(v)}%`] };
    case 'ew':
      return { sql: `${col} like ? escape '\\'`, bindings: [`%${escapeLike(v)}`] };
    default:
      throw invalidFilter(`operator ${op} is not supported on ${name} (eq, ne, co, sw, ew, pr are)`);
  }
}

function compare(attributes: Record<string, FilterAttribute>, f: Filter & { attrPath: string }, value: unknown, parent?: string): SqlCondition {
  const name = parent === undefined ? f.attrPath : `${parent}.${f.attrPath}`;
  const attr = attributes[attributeKey(name)];
  if (!attr) throw invalidFilter(`attribute ${name} cannot be filtered on (supported: ${Object.keys(attributes).join(', ')})`);
  if (attr.type === 'string') return stringCondition(attr, f.op, value, name);
  if (f.op === 'pr') return { sql: 'true', bindings: [] };
  if (f.op !== 'eq' && f.op !== 'ne') throw invalidFilter(`operator ${f.op} is not supported on ${name} (eq, ne, pr are)`);
  const negate = (c: SqlCondition): SqlCondition => (f.op === 'ne' ? { sql: `not (${c.sql})`, bindings: c.bindings } : c);
  if (attr.type === 'boolean') {
    if (typeof value !== 'boolean') throw invalidFilter(`${name} compares with true or false`);
    return negate({ sql: `${attr.column} = ?`, bindings: [value] });
  }
  if (typeof value !== 'string') throw invalidFilter(`${name} compares with an id in quotes`);
  // A value that is not an id names nothing, so no row matches it (and no cast can fail).
  if (!isUuid(value)) return negate(NEVER);
  const lowered = value.toLowerCase();
  return negate(attr.type === 'id' ? { sql: `${attr.column} = ?::uuid`, bindings: [lowered] } : { sql: attr.sql, bindings: [lowered] });
}

/** `parent`: inside a value filter (`emails[value eq "x"]`), the attribute its paths belong to. */
function toSql(attributes: Record<string, FilterAttribute>, f: Filter, budget: { terms: number }, parent?: string): SqlCondition {
  if (++budget.terms > MAX_FILTER_TERMS) throw invalidFilter(`a filter may have at most ${MAX_FILTER_TERMS} terms`);
  switch (f.op) {
    case 'and':
    case 'or': {
      const parts = f.filters.map((p) => toSql(attributes, p, budget, parent));
      return { sql: parts.map((p) => `(${p.sql})`).join(` ${f.op} `), bindings: parts.flatMap((p) => p.bindings) };
    }
    case 'not': {
      const inner = toSql(attributes, f.filter, budget, parent);
      return { sql: `not coalesce((${inner.sql}), false)`, bindings: inner.bindings };
    }
    case '[]':
      // One value per multi-valued attribute here (one email), so `emails[value eq "x"]` is `emails.value eq "x"`.
      if (parent !== undefined) throw invalidFilter(`value filters cannot nest (${parent}[…${f.attrPath}[…]])`);
      return toSql(attributes, f.valFilter, budget, f.attrPath);
    default:
      return compare(attributes, f, 'compValue' in f ? f.compValue : undefined, parent);
  }
}

/**
 * scim2-parse-filter's tokenizer backtracks exponentially on a quoted string of line breaks with
 * no closing quote (its string pattern matches `\n` two ways), so text with control characters
 * never reaches it: no filter or path needs them. Returns undefined when the text does not parse.
 */
export function parseScimFilter(text: string): Filter | undefined {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20) return undefined;
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

/** Parses a `filter` parameter and maps it onto `attributes`; anything else is 400 invalidFilter. */
export function compileFilter(text: string, attributes: Record<string, FilterAttribute>): SqlCondition {
  if (text.length > MAX_FILTER_LENGTH) throw invalidFilter(`filter must be at most ${MAX_FILTER_LENGTH} characters`);
  const parsed = parseScimFilter(text);
  if (parsed === undefined) throw invalidFilter(`filter is not a valid SCIM filter: ${JSON.stringify(text.slice(0, 200))}`);
  return toSql(attributes, parsed, { terms: 0 });
}
