import fc from 'fast-check';
import { canonicalJson, payloadFingerprint } from '../../../src/domain/ingest/canonical-json';

describe('canonical JSON', () => {
  it('when keys come in another order or with other spacing, then the canonical form is the same', () => {
    const a = JSON.parse('{"title":"x","metadata":{"b":1,"a":[1,{"d":2,"c":3}]}}');
    const b = JSON.parse('{ "metadata": { "a": [1, {"c": 3, "d": 2}], "b": 1 }, "title": "x" }');
    expect(canonicalJson(a)).toBe('{"metadata":{"a":[1,{"c":3,"d":2}],"b":1},"title":"x"}');
    expect(payloadFingerprint(a)).toBe(payloadFingerprint(b));
  });

  it('when any value changes, then the fingerprint changes', () => {
    expect(payloadFingerprint({ title: 'x' })).not.toBe(payloadFingerprint({ title: 'y' }));
    expect(payloadFingerprint({ a: [1, 2] })).not.toBe(payloadFingerprint({ a: [2, 1] }));
    expect(payloadFingerprint({ a: 1 })).not.toBe(payloadFingerprint({ a: '1' }));
  });

  it('when any JSON value is shuffled and re-serialised, then its canonical form is stable and parses back to an equal value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const canon = canonicalJson(value);
        expect(canonicalJson(JSON.parse(JSON.stringify(value, null, 2)))).toBe(canon);
        expect(JSON.parse(canon)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });
});
