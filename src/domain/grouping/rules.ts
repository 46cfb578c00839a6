import { z } from 'zod';
import { nonLinearReason } from './linear-regex';

/** Bounds of a service's grouping rules (docs/grouping.md, "Rules"). */
export const GROUPING_LIMITS = {
  rules: 20,
  name: 100,
  conditions: 10,
  groupBy: 5,
  fieldKey: 100,
  value: 500,
  windowSeconds: { min: 60, max: 7 * 24 * 3600 },
  pageAfterCount: { min: 2, max: 10_000 },
  pageAfterWithin: { min: 60, max: 24 * 3600 },
} as const;

/** An alert field a rule reads: `title`, `severity`, `source`, `labels.<key>` or `details.<key>`. */
export type AlertField = string;

export type MatchOp = 'equals' | 'contains' | 'exists' | 'matches';

export interface MatchCondition {
  field: AlertField;
  op: MatchOp;
  value?: string;
}

/** One grouping rule of a service (design §26). */
export interface GroupingRule {
  name: string;
  match: MatchCondition[];
  group_by: AlertField[];
  window_seconds: number;
  page_after?: { count: number; within_seconds: number } | null;
}

// Postgres text and jsonb cannot hold NUL.
const storable = (s: string) => !s.includes('\u0000');
const NUL = 'must not contain the NUL character';

const FIELD_PREFIXES = ['labels.', 'details.'] as const;
const PLAIN_FIELDS = new Set(['title', 'severity', 'source']);

/** Whether a string names an alert field a rule may read. */
export function isAlertField(field: string): boolean {
  if (PLAIN_FIELDS.has(field)) return true;
  const prefix = FIELD_PREFIXES.find((p) => field.startsWith(p));
  if (!prefix) return false;
  const key = field.slice(prefix.length);
  return key.length > 0 && key.length <= GROUPING_LIMITS.fieldKey && storable(key);
}

const FIELD_MESSAGE = 'must be title, severity, source, labels.<key> or details.<key>';
const field = z.string({ message: `must be a string: ${FIELD_MESSAGE}` }).refine(isAlertField, { message: FIELD_MESSAGE });
const seconds = (bounds: { min: number; max: number }) =>
  z
    .number({ message: 'must be a whole number of seconds' })
    .int('must be a whole number of seconds')
    .min(bounds.min, `must be at least ${bounds.min}`)
    .max(bounds.max, `must be at most ${bounds.max}`);

const condition = z
  .object(
    {
      field,
      op: z.enum(['equals', 'contains', 'exists', 'matches'], { message: 'must be equals, contains, exists or matches' }),
      value: z
        .string({ message: 'must be a string' })
        .max(GROUPING_LIMITS.value, `must be at most ${GROUPING_LIMITS.value} characters`)
        .refine(storable, NUL)
        .optional(),
    },
    { message: 'must be an object' },
  )
  .strict()
  .superRefine((c, ctx) => {
    if (c.op === 'exists') return;
    if (c.value === undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `is required for ${c.op}` });
      return;
    }
    if (c.op === 'matches') {
      const reason = nonLinearReason(c.value);
      if (reason) ctx.addIssue({ code: 'custom', path: ['value'], message: reason });
    }
  });

const rule = z
  .object(
    {
      name: z
        .string({ message: 'must be a string' })
        .trim()
        .min(1, 'must not be empty')
        .max(GROUPING_LIMITS.name, `must be at most ${GROUPING_LIMITS.name} characters`),
      match: z.array(condition, { message: 'must be an array' }).max(GROUPING_LIMITS.conditions, `must have at most ${GROUPING_LIMITS.conditions} conditions`),
      group_by: z.array(field, { message: 'must be an array' }).max(GROUPING_LIMITS.groupBy, `must have at most ${GROUPING_LIMITS.groupBy} fields`),
      window_seconds: seconds(GROUPING_LIMITS.windowSeconds),
      page_after: z
        .object(
          {
            count: z
              .number({ message: 'must be a whole number' })
              .int('must be a whole number')
              .min(GROUPING_LIMITS.pageAfterCount.min, `must be at least ${GROUPING_LIMITS.pageAfterCount.min}`)
              .max(GROUPING_LIMITS.pageAfterCount.max, `must be at most ${GROUPING_LIMITS.pageAfterCount.max}`),
            within_seconds: seconds(GROUPING_LIMITS.pageAfterWithin),
          },
          { message: 'must be an object or null' },
        )
        .strict()
        .nullish(),
    },
    { message: 'must be an object' },
  )
  .strict();

/** A service's rules, in order (the first that matches an alert groups it); names are unique. */
export const groupingRulesSchema = z
  .array(rule, { message: 'must be an array of rules' })
  .max(GROUPING_LIMITS.rules, `must have at most ${GROUPING_LIMITS.rules} rules`)
  .superRefine((rules, ctx) => {
    const seen = new Set<string>();
    rules.forEach((r, i) => {
      if (seen.has(r.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `repeats the name "${r.name}"` });
      seen.add(r.name);
    });
  });

/** The first problem of a rejected rule set, naming its field (`rules[1].match[0].value: …`). */
export function describeRulesIssue(error: z.ZodError, root = 'rules'): { field: string; message: string } {
  const issue = error.issues[0];
  let path = root;
  for (const part of issue.path) path += typeof part === 'number' ? `[${part}]` : `.${String(part)}`;
  return { field: path, message: `${path} ${issue.message}` };
}

/** Parses a rule set; the error names the first field that is wrong. */
export function parseGroupingRules(input: unknown, root = 'rules'): { ok: true; rules: GroupingRule[] } | { ok: false; field: string; message: string } {
  const parsed = groupingRulesSchema.safeParse(input);
  if (!parsed.success) return { ok: false, ...describeRulesIssue(parsed.error, root) };
  return { ok: true, rules: parsed.data.map((r) => ({ ...r, page_after: r.page_after ?? null })) };
}
