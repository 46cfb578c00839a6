import { alertFieldText, groupingOf } from '../../../src/domain/grouping/match';
import type { GroupingRule } from '../../../src/domain/grouping/rules';

const alert = (over: Record<string, unknown> = {}) => ({
  title: 'Disk full on db-1',
  severity: 'HIGH',
  sender: 'alertmanager',
  metadata: { labels: { host: 'db-1', dc: 'eu' }, region: 'eu-west-1', source: 'prometheus' },
  tags: null,
  ...over,
});
const rule = (over: Partial<GroupingRule> = {}): GroupingRule => ({ name: 'disk', match: [], group_by: [], window_seconds: 600, page_after: null, ...over });

describe('grouping: matching an alert', () => {
  it('when fields are read, then labels come from native labels or Form B tags and details from metadata', () => {
    expect(alertFieldText(alert(), 'labels.host')).toBe('db-1');
    expect(alertFieldText(alert({ tags: { host: 'web-2' } }), 'labels.host')).toBe('web-2');
    expect(alertFieldText(alert(), 'details.region')).toBe('eu-west-1');
    expect(alertFieldText(alert(), 'source')).toBe('prometheus');
    expect(alertFieldText(alert({ metadata: {} }), 'source')).toBe('alertmanager');
    expect(alertFieldText(alert(), 'labels.missing')).toBeNull();
    expect(alertFieldText(alert({ title: 'x'.repeat(5000) }), 'title')).toHaveLength(1024);
  });

  it('when rules are tried in order, then the first whose every condition holds groups the alert by its group_by values', () => {
    const rules = [
      rule({ name: 'critical', match: [{ field: 'severity', op: 'equals', value: 'CRITICAL' }] }),
      rule({
        name: 'disk',
        match: [
          { field: 'title', op: 'contains', value: 'Disk' },
          { field: 'labels.dc', op: 'exists' },
        ],
        group_by: ['labels.dc', 'severity'],
      }),
      rule({ name: 'all' }),
    ];
    expect(groupingOf(rules, alert())).toEqual({ rule: rules[1], key: 'labels.dc=eu, severity=HIGH' });
    expect(groupingOf(rules, alert({ title: 'CPU high' }))).toEqual({ rule: rules[2], key: '*' });
    expect(groupingOf(rules.slice(0, 2), alert({ title: 'CPU high' }))).toBeNull();
  });

  it('when a matches condition runs, then it tests the field text with the pattern', () => {
    const rules = [rule({ match: [{ field: 'labels.host', op: 'matches', value: '^db-[0-9]+$' }], group_by: ['labels.host'] })];
    expect(groupingOf(rules, alert())?.key).toBe('labels.host=db-1');
    expect(groupingOf(rules, alert({ metadata: { labels: { host: 'web-1' } } }))).toBeNull();
  });
});
