import type { GroupingRule, MatchCondition } from './rules';

/** What a rule reads of an alert (an ingestion item or a stored alert row). */
export interface GroupableAlert {
  title: string;
  severity: string;
  sender: string;
  metadata: Record<string, unknown> | null;
  tags?: Record<string, string> | null;
}

/** The rule an alert falls under and its group key. */
export interface Grouping {
  rule: GroupingRule;
  key: string;
}

/** Text a condition or key reads of a field is cut here: a regex never runs on more. */
export const FIELD_TEXT_LIMIT = 1024;
/** Each group_by value is cut here in the key, so a key stays short enough to index. */
const KEY_VALUE_LIMIT = 100;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const scalarText = (v: unknown): string | null => {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
};

/**
 * The text of an alert field, or null when the alert has none (docs/grouping.md, "Fields"):
 * `source` is what the sender named as the source (Form A `source`), else the sender;
 * `labels.<k>` a Form B tag or a native label (Alertmanager, Google Cloud); `details.<k>` a
 * top-level value of the alert's details (Form A `metadata`).
 */
export function alertFieldText(alert: GroupableAlert, field: string): string | null {
  let value: string | null;
  if (field === 'title') value = alert.title;
  else if (field === 'severity') value = alert.severity;
  else if (field === 'source') value = scalarText(alert.metadata?.source) ?? alert.sender;
  else if (field.startsWith('labels.')) {
    const key = field.slice('labels.'.length);
    const labels = alert.metadata?.labels;
    value =
      (alert.tags && Object.hasOwn(alert.tags, key) ? scalarText(alert.tags[key]) : null) ??
      (isRecord(labels) && Object.hasOwn(labels, key) ? scalarText(labels[key]) : null);
  } else if (field.startsWith('details.')) {
    const key = field.slice('details.'.length);
    value = alert.metadata && Object.hasOwn(alert.metadata, key) ? scalarText(alert.metadata[key]) : null;
  } else value = null;
  return value === null ? null : value.slice(0, FIELD_TEXT_LIMIT);
}

/** Compiled conditions, cached per rule set: a regex is compiled once, not per alert. */
const compiled = new WeakMap<MatchCondition, RegExp>();
const regexOf = (c: MatchCondition): RegExp => {
  let re = compiled.get(c);
  if (!re) {
    // The pattern passed nonLinearReason when the rule was parsed (rules.ts).
    re = new RegExp(c.value ?? '');
    compiled.set(c, re);
  }
  return re;
};

/** Whether one condition holds for an alert. */
export function conditionHolds(alert: GroupableAlert, c: MatchCondition): boolean {
  const text = alertFieldText(alert, c.field);
  switch (c.op) {
    case 'exists':
      return text !== null && text !== '';
    case 'equals':
      return text === (c.value ?? '');
    case 'contains':
      return text !== null && text.includes(c.value ?? '');
    case 'matches':
      return text !== null && regexOf(c).test(text);
  }
}

/** Whether every condition of a rule holds (a rule without conditions takes every alert). */
export const ruleMatches = (rule: GroupingRule, alert: GroupableAlert): boolean => rule.match.every((c) => conditionHolds(alert, c));

/** The group key: the rule's group_by fields and the alert's values, e.g. `labels.host=db-1, severity=HIGH`. */
export function groupKeyOf(rule: GroupingRule, alert: GroupableAlert): string {
  if (rule.group_by.length === 0) return '*';
  return rule.group_by.map((f) => `${f}=${(alertFieldText(alert, f) ?? '').slice(0, KEY_VALUE_LIMIT)}`).join(', ');
}

/** The first rule of the list that takes the alert, and its group key; null when none does. */
export function groupingOf(rules: readonly GroupingRule[], alert: GroupableAlert): Grouping | null {
  for (const rule of rules) if (ruleMatches(rule, alert)) return { rule, key: groupKeyOf(rule, alert) };
  return null;
}
