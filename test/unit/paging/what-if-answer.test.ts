import { DomainError } from '../../../src/services/errors';
import { answerIncidents, answerTotals, decodeCursor, encodeCursor, requestDigest, WHAT_IF_ANSWER } from '../../../src/services/paging/what-if-answer';

// docs/what-if.md, "Bounds": an answer of at most 5 MiB, the rest by cursor.
const sized = (id: string, bytes: number, differs: boolean) => ({ text: id, bytes, differs });
const ids = (r: { incidents: Array<{ text: string }> }) => r.incidents.map((i) => i.text);

describe('answerIncidents', () => {
  const all = [sized('a', 40, false), sized('b', 40, true), sized('c', 40, false), sized('d', 40, true)];

  it('when everything fits, then it is one answer in replay order (oldest first), with nothing next', () => {
    expect(answerIncidents(all, 0, 1000)).toEqual({ incidents: all, next: null });
  });

  it('when it does not fit, then the incidents that differ come first, each part as many as fit, and the next part starts where this one ended', () => {
    const first = answerIncidents(all, 0, 85);
    expect(ids(first)).toEqual(['b', 'd']);
    expect(first.next).toBe(2);
    const second = answerIncidents(all, first.next!, 85);
    expect(ids(second)).toEqual(['a', 'c']);
    expect(second.next).toBeNull();
  });

  it('when one incident is larger than the budget, then it still goes alone rather than never', () => {
    expect(answerIncidents([sized('big', 500, true), sized('small', 10, false)], 0, 100)).toEqual({ incidents: [sized('big', 500, true)], next: 1 });
  });
});

describe('cursors', () => {
  const digest = requestDigest({ policy: { id: 'p' }, service_id: 's', from: 'f', to: 't' });
  const now = Date.UTC(2026, 11, 14, 10);

  it('when a cursor comes back with the same request, then it gives the offset and the pinned now, even to a process whose clock is a little behind', () => {
    expect(decodeCursor(encodeCursor({ offset: 3590, nowMs: now }, digest), digest, now + 60_000)).toEqual({ offset: 3590, nowMs: now });
    expect(decodeCursor(encodeCursor({ offset: 3590, nowMs: now }, digest), digest, now - 2_000)).toEqual({ offset: 3590, nowMs: now });
  });

  it('when a cursor comes with another request, from the future, or forged, then it is refused naming cursor', () => {
    const other = requestDigest({ policy: { id: 'p' }, service_id: 's', from: 'f2', to: 't' });
    const refusals = [
      () => decodeCursor(encodeCursor({ offset: 1, nowMs: now }, digest), other, now),
      () => decodeCursor(encodeCursor({ offset: 1, nowMs: now + 10 * 60_000 }, digest), digest, now),
      () => decodeCursor('bm90IGpzb24', digest, now),
      () => decodeCursor(Buffer.from(JSON.stringify({ o: -1, n: now, d: digest })).toString('base64url'), digest, now),
    ];
    for (const refused of refusals) {
      expect(refused).toThrow(DomainError);
      expect(refused).toThrow(/^cursor: must be the next_cursor of an earlier answer/);
    }
  });
});

describe('answerTotals', () => {
  it('when the totals are too many to answer, then the most paged are kept and the cut is said', () => {
    const person = (i: number) => ({ user_id: `${i}`.padStart(36, '0'), name: 'x'.repeat(200), would_pages: 1, night_pages: 0, actual_pages: 0 });
    const many = Array.from({ length: 5000 }, (_, i) => person(i));
    const { totals, cut } = answerTotals(many);
    expect(cut).toBe(true);
    expect(totals).toEqual(many.slice(0, totals.length));
    expect(Buffer.byteLength(JSON.stringify(totals))).toBeLessThanOrEqual(WHAT_IF_ANSWER.maxTotalsBytes);
    expect(answerTotals(many.slice(0, 10))).toEqual({ totals: many.slice(0, 10), cut: false });
  });
});
