import { isStorableText, storableJson, storableText, unstorablePath } from '../../../src/domain/ingest/storable-text';

describe('text PostgreSQL can store', () => {
  it.each([
    ['plain text', 'Disk full', true],
    ['an emoji (a surrogate pair)', 'fire 🔥', true],
    ['U+0000', 'a\u0000b', false],
    ['a high surrogate alone', 'a\ud83d', false],
    ['a low surrogate alone', '\udd25b', false],
    ['a pair in the wrong order', '\udd25\ud83d', false],
  ])('when a string holds %s, then isStorableText says %s', (_what, value, storable) => {
    expect(isStorableText(value)).toBe(storable);
  });

  it('when a string is not storable, then each bad character becomes U+FFFD and pairs are kept', () => {
    expect(storableText('a\u0000b\ud83dc🔥\udd25')).toBe('a\uFFFDb\uFFFDc🔥\uFFFD');
    expect(storableText('🔥'.slice(0, 1))).toBe('\uFFFD');
  });

  it('when a JSON value holds unstorable keys or values at any depth, then a mended copy; else the value itself', () => {
    const clean = { a: ['x', { b: 1 }], c: null };
    expect(storableJson(clean)).toBe(clean);
    expect(storableJson({ a: ['x', { 'k\u0000': 'v\ud800' }], c: 2 })).toEqual({ a: ['x', { 'k\uFFFD': 'v\uFFFD' }], c: 2 });
  });

  it('when looking for the first unstorable string, then its path (a bad key ends the path), or undefined', () => {
    expect(unstorablePath({ a: { b: ['ok', 'n\u0000'] } })).toEqual(['a', 'b', '1']);
    expect(unstorablePath({ a: { 'bad\ud800': 1 } })).toEqual(['a', 'bad\ud800']);
    expect(unstorablePath({ a: ['fine 🔥'] })).toBeUndefined();
  });
});
