import { parseGroupingRules } from '../../../src/domain/grouping/rules';
import { nonLinearReason } from '../../../src/domain/grouping/linear-regex';

const rule = (over: Record<string, unknown> = {}) => ({ name: 'by host', match: [], group_by: ['labels.host'], window_seconds: 600, ...over });

describe('grouping rules', () => {
  it('when a rule set is well formed, then it parses with page_after defaulting to null', () => {
    const parsed = parseGroupingRules([rule({ match: [{ field: 'title', op: 'matches', value: '^disk .*full$' }] })]);
    expect(parsed).toEqual({
      ok: true,
      rules: [
        {
          name: 'by host',
          match: [{ field: 'title', op: 'matches', value: '^disk .*full$' }],
          group_by: ['labels.host'],
          window_seconds: 600,
          page_after: null,
        },
      ],
    });
  });

  it('when a matches pattern can backtrack super-linearly, then the error names its field', () => {
    const parsed = parseGroupingRules([rule(), rule({ name: 'x', match: [{ field: 'title', op: 'matches', value: '(a+)+$' }] })]);
    expect(parsed).toMatchObject({ ok: false, field: 'rules[1].match[0].value' });
    expect(!parsed.ok && parsed.message).toMatch(/^rules\[1\]\.match\[0\]\.value can take super-linear time/);
  });

  it('when patterns are invalid or use back-references, then they are refused; linear ones pass', () => {
    expect(nonLinearReason('(')).toBe('is not a valid regular expression');
    expect(nonLinearReason('(a)\\1')).toBe('must not use back-references');
    expect(nonLinearReason('\\d*\\w+')).toMatch(/super-linear/);
    expect(nonLinearReason('x'.repeat(201))).toMatch(/at most 200/);
    expect(nonLinearReason('^host-[0-9]+$')).toBeNull();
  });

  it('when fields, ops, windows or names are wrong, then each is named', () => {
    const cases: Array<[unknown, string]> = [
      [[rule({ group_by: ['hostname'] })], 'rules[0].group_by[0]'],
      [[rule({ match: [{ field: 'labels.', op: 'exists' }] })], 'rules[0].match[0].field'],
      [[rule({ match: [{ field: 'title', op: 'like', value: 'x' }] })], 'rules[0].match[0].op'],
      [[rule({ match: [{ field: 'title', op: 'equals' }] })], 'rules[0].match[0].value'],
      [[rule({ window_seconds: 10 })], 'rules[0].window_seconds'],
      [[rule({ page_after: { count: 1, within_seconds: 60 } })], 'rules[0].page_after.count'],
      [[rule(), rule()], 'rules[1].name'],
      [[rule({ extra: true })], 'rules[0]'],
      [Array.from({ length: 21 }, (_, i) => rule({ name: `r${i}` })), 'rules'],
      ['nope', 'rules'],
    ];
    for (const [input, field] of cases) expect(parseGroupingRules(input)).toMatchObject({ ok: false, field });
  });
});
