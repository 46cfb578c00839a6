import { GroupCommit } from '../../../src/services/ingest/group-commit';

/** A writer whose batches finish when the test says so. */
function controlledWriter() {
  const batches: number[][] = [];
  const finish: Array<() => void> = [];
  const write = (items: number[]) =>
    new Promise<string[]>((resolve) => {
      batches.push(items);
      finish.push(() => resolve(items.map((i) => `done ${i}`)));
    });
  return { batches, finish, write };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('GroupCommit', () => {
  it('when items arrive while a batch is being written, then they wait and go together in the next batch', async () => {
    const w = controlledWriter();
    const gc = new GroupCommit<number, string>(w.write, { maxBatch: 100 });
    const first = gc.submit(1);
    const later = [gc.submit(2), gc.submit(3), gc.submit(4)];
    await tick();
    expect(w.batches).toEqual([[1]]);
    expect(gc.pending).toEqual({ queued: 3, inFlight: 1 });
    w.finish[0]();
    expect(await first).toBe('done 1');
    await tick();
    expect(w.batches).toEqual([[1], [2, 3, 4]]);
    w.finish[1]();
    expect(await Promise.all(later)).toEqual(['done 2', 'done 3', 'done 4']);
  });

  it('when more items wait than a batch may carry, then they are split in order', async () => {
    const w = controlledWriter();
    const gc = new GroupCommit<number, string>(w.write, { maxBatch: 2 });
    const all = [1, 2, 3, 4, 5].map((i) => gc.submit(i));
    await tick();
    while (w.finish.length < 3) {
      w.finish[w.finish.length - 1]();
      await tick();
    }
    w.finish[2]();
    expect(await Promise.all(all)).toEqual(['done 1', 'done 2', 'done 3', 'done 4', 'done 5']);
    expect(w.batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('when two batches may be in flight, then a second starts while the first is written, and a third waits', async () => {
    const w = controlledWriter();
    const gc = new GroupCommit<number, string>(w.write, { maxBatch: 1, maxInFlight: 2 });
    const all = [1, 2, 3].map((i) => gc.submit(i));
    await tick();
    expect(w.batches).toEqual([[1], [2]]);
    w.finish[1]();
    await tick();
    expect(w.batches).toEqual([[1], [2], [3]]);
    w.finish[0]();
    w.finish[2]();
    expect(await Promise.all(all)).toEqual(['done 1', 'done 2', 'done 3']);
  });

  it('when a batch fails, then each of its items is rejected with the error, and the next batch still runs', async () => {
    let calls = 0;
    const gc = new GroupCommit<number, number>(
      async (items) => {
        calls++;
        if (calls === 1) throw new Error('database away');
        return items.map((i) => i * 10);
      },
      { maxBatch: 10 },
    );
    const failed = gc.submit(1);
    const next = gc.submit(2);
    await expect(failed).rejects.toThrow('database away');
    expect(await next).toBe(20);
  });

  it('when a batch commits, then onCommitted sees its items and outcomes once', async () => {
    const seen: Array<[number[], number[]]> = [];
    const gc = new GroupCommit<number, number>(async (items) => items.map((i) => -i), {
      maxBatch: 10,
      onCommitted: (items, outcomes) => seen.push([items, outcomes]),
    });
    await Promise.all([gc.submit(1), gc.submit(2)]);
    expect(seen).toEqual([
      [[1], [-1]],
      [[2], [-2]],
    ]);
  });
});
