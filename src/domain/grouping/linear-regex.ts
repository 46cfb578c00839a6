import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import { analyse } from 'scslre';

/** The longest pattern a grouping rule may carry. */
export const MAX_PATTERN_LENGTH = 200;

/**
 * Why a user's regular expression may not run on alert text, or null when it may. The rule is the
 * lint rule every regex in the code passes (eslint-plugin-regexp's `no-super-linear-backtracking`
 * and `no-super-linear-move`, both on the same analyser, scslre): no report of either kind, and no
 * back-reference (which no analyser can bound). docs/grouping.md, "Patterns".
 */
export function nonLinearReason(source: string): string | null {
  if (source.length > MAX_PATTERN_LENGTH) return `must be at most ${MAX_PATTERN_LENGTH} characters`;
  let ast;
  try {
    ast = new RegExpParser({ ecmaVersion: 2022 }).parsePattern(source, 0, source.length, { unicode: false });
  } catch {
    return 'is not a valid regular expression';
  }
  let backreference = false;
  visitRegExpAST(ast, {
    onBackreferenceEnter: () => {
      backreference = true;
    },
  });
  if (backreference) return 'must not use back-references';
  let reports;
  try {
    reports = analyse({ source, flags: '' }, { assumeRejectingSuffix: true, maxReports: 1 }).reports;
  } catch {
    return 'is not a valid regular expression';
  }
  if (reports.length > 0) {
    return `can take super-linear time (on a long run of "${reports[0].character.pick}"); anchor it with ^ or make its repetitions unambiguous`;
  }
  return null;
}
