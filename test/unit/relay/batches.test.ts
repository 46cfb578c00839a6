import { batchesPerIncident } from '../../../src/services/relay/batches';

const row = (incident_id: string, n: number) => ({ incident_id, id: `${incident_id}${n}` });
const ids = (batches: Array<Array<Array<{ id: string }>>>) => batches.map((own) => own.map((batch) => batch.map((r) => r.id)));

describe('batchesPerIncident', () => {
  it('when rows of several incidents interleave, then each incident gets its rows in their order, incidents by their oldest row', () => {
    const rows = [row('b', 1), row('a', 1), row('b', 2), row('c', 1), row('a', 2), row('b', 3)];
    expect(ids(batchesPerIncident(rows, 500))).toEqual([[['b1', 'b2', 'b3']], [['a1', 'a2']], [['c1']]]);
  });

  it('when an incident has more rows than a batch holds, then they are cut into full batches in order and a remainder', () => {
    const rows = Array.from({ length: 1201 }, (_, i) => row('x', i));
    const [own] = batchesPerIncident(rows, 500);
    expect(own.map((b) => b.length)).toEqual([500, 500, 201]);
    expect(own.flat()).toEqual(rows);
  });

  it('when the rows fill exactly one batch, then there is one batch and no empty one', () => {
    expect(
      batchesPerIncident(
        Array.from({ length: 4 }, (_, i) => row('x', i)),
        4,
      ).map((own) => own.length),
    ).toEqual([1]);
  });

  it('when there are no rows, then there are no batches', () => {
    expect(batchesPerIncident([], 500)).toEqual([]);
  });

  it('when the batch size is not a positive number, then it throws rather than loop or drop rows', () => {
    expect(() => batchesPerIncident([row('x', 1)], 0)).toThrow(RangeError);
    expect(() => batchesPerIncident([row('x', 1)], Number.NaN)).toThrow(RangeError);
  });
});

describe('batchesPerIncident with rows that failed before', () => {
  const failed = new Set(['x0', 'y1']);
  const failedBefore = (r: { id: string }) => failed.has(r.id);

  it("when an incident's first row failed before, then it goes alone and the rest are batched as usual behind it", () => {
    const rows = Array.from({ length: 5 }, (_, i) => row('x', i));
    expect(ids(batchesPerIncident(rows, 2, failedBefore))).toEqual([[['x0'], ['x1', 'x2'], ['x3', 'x4']]]);
  });

  it("when a row that failed before is not its incident's first, or is its only row, then batches are as usual", () => {
    const rows = [row('y', 0), row('y', 1), row('y', 2), row('x', 0)];
    expect(ids(batchesPerIncident(rows, 500, failedBefore))).toEqual([[['y0', 'y1', 'y2']], [['x0']]]);
  });
});
