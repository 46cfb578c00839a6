import { nestsDeeperThan, parseJsonText } from '../../../src/domain/ingest/json-text';
import { INGEST_LIMITS } from '../../../src/domain/ingest/limits';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('JSON text with its nesting checked first', () => {
  it('when objects and arrays nest up to the limit, then the value parses as JSON.parse would', () => {
    expect(parseJsonText(nested(INGEST_LIMITS.jsonDepth))).toEqual({ ok: true, value: JSON.parse(nested(INGEST_LIMITS.jsonDepth)) });
    expect(parseJsonText('{"a":{"b":[1,{"c":"d"}]}}')).toEqual({ ok: true, value: { a: { b: [1, { c: 'd' }] } } });
  });

  it('when they nest one level deeper than the limit, then a 400 message and nothing is parsed', () => {
    expect(parseJsonText(nested(INGEST_LIMITS.jsonDepth + 1))).toEqual({
      ok: false,
      message: `request body nests objects and arrays more than ${INGEST_LIMITS.jsonDepth} levels deep`,
    });
    expect(parseJsonText('{"a":'.repeat(200_000) + '1' + '}'.repeat(200_000)).ok).toBe(false);
  });

  it('when brackets and escaped quotes sit inside strings, then they do not count as nesting', () => {
    const text = JSON.stringify({ title: '['.repeat(1000) + '\\"{{{' + '"[['.repeat(100) });
    expect(nestsDeeperThan(text, 1)).toBe(false);
    expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it('when the text is not JSON, or a bare value where an object or array is required, then the same 400 message', () => {
    expect(parseJsonText('{"broken": ')).toEqual({ ok: false, message: 'request body is not valid JSON' });
    expect(parseJsonText('"just a string"', { objectOrArray: true })).toEqual({ ok: false, message: 'request body is not valid JSON' });
    expect(parseJsonText('null', { objectOrArray: true })).toEqual({ ok: false, message: 'request body is not valid JSON' });
    expect(parseJsonText('"just a string"')).toEqual({ ok: true, value: 'just a string' });
  });
});
