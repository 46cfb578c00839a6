import { compileFilter, type FilterAttribute } from '../../../src/services/scim/filter';
import { ScimError } from '../../../src/services/scim/errors';
import { applyGroupPatch } from '../../../src/services/scim/patch-group';
import { TEXT_SHAPES, shapeText } from '../../support/hostile/shapes';

const ATTRS: Record<string, FilterAttribute> = {
  username: { type: 'string', column: 'u.email', caseExact: false },
  externalid: { type: 'string', column: 's.external_id', caseExact: true },
  active: { type: 'boolean', column: '(m.user_id is not null)' },
  id: { type: 'id', column: 'u.id' },
};
const invalidFilter = (f: string) => {
  try {
    compileFilter(f, ATTRS);
  } catch (err) {
    return err instanceof ScimError && err.scimType === 'invalidFilter' && err.status === 400;
  }
  return false;
};

describe('compileFilter', () => {
  it('when userName is compared, then it is case-insensitive and the value is a binding', () => {
    expect(compileFilter('userName eq "BJensen@Example.com"', ATTRS)).toEqual({ sql: 'lower(u.email) = ?', bindings: ['bjensen@example.com'] });
    expect(compileFilter('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "a"', ATTRS).bindings).toEqual(['a']);
  });

  it('when externalId is compared, then it is case-exact', () => {
    expect(compileFilter('externalId eq "AbC"', ATTRS)).toEqual({ sql: 's.external_id = ?', bindings: ['AbC'] });
  });

  it('when and, or, not and pr combine, then the SQL nests them with every value bound and LIKE wildcards escaped', () => {
    expect(compileFilter('active eq true and (userName sw "a%" or externalId pr)', ATTRS)).toEqual({
      sql: "((m.user_id is not null) = ?) and ((lower(u.email) like ? escape '\\') or ((s.external_id is not null and s.external_id <> '')))",
      bindings: [true, 'a\\%%'],
    });
    expect(compileFilter('not (active eq false)', ATTRS)).toEqual({ sql: 'not coalesce(((m.user_id is not null) = ?), false)', bindings: [false] });
  });

  it('when an id that is not a UUID is asked for, then nothing matches and no cast is attempted', () => {
    expect(compileFilter('id eq "x"', ATTRS)).toEqual({ sql: 'false', bindings: [] });
  });

  it('when the filter is malformed, names an unknown attribute, or uses an unsupported operator or type, then it is invalidFilter', () => {
    for (const f of ['userName eq', 'userName eq "a" and', 'title eq "x"', 'userName gt "a"', 'active eq "yes"', 'emails[type eq "work"]', 'x'.repeat(1001)]) {
      expect(invalidFilter(f)).toBe(true);
    }
  });

  it('when a quoted value is all line breaks with no closing quote (the parser backtracks exponentially on it), then it is refused at once (28 of them take the bare parser seconds)', () => {
    const started = Date.now();
    expect(invalidFilter(`userName eq "${'\n'.repeat(28)}`)).toBe(true);
    expect(Date.now() - started).toBeLessThan(250);
  });

  it('when the hostile corpus fills a filter or a members path up to its cap, in any position, then each is answered in well under 250 ms (a backtracking blow-up takes seconds)', () => {
    const group = { displayName: 'g', externalId: null, memberIds: [] };
    for (const shape of TEXT_SHAPES) {
      const t = shapeText(shape, 1000);
      const filters = [`userName eq "${t}"`, `userName eq "${t}`, t, `(${t}`, `userName co ${t}`].map((f) => f.slice(0, 1000));
      for (const f of filters) {
        const started = performance.now();
        try {
          compileFilter(f, ATTRS);
        } catch {
          // 400 invalidFilter, or an answer: both fine; only the time matters here.
        }
        try {
          applyGroupPatch(group, [{ op: 'remove', path: `members[value eq "${f}"]`.slice(0, 300) }]);
        } catch {
          // 400 invalidPath
        }
        expect({ shape: shape.name, filter: f.slice(0, 40), slow: performance.now() - started >= 250 }).toMatchObject({ slow: false });
      }
    }
  });
});
