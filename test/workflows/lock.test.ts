import { HandlerLock } from '../../workflows/incident/lock';

describe('handler lock', () => {
  it('when several handlers start in the same tick, then they run one at a time in arrival order', async () => {
    const lock = new HandlerLock();
    const events: string[] = [];
    let inside = 0;
    const task = (name: string) =>
      lock.run(async () => {
        inside++;
        expect(inside).toBe(1);
        events.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, 5));
        events.push(`end ${name}`);
        inside--;
        return name;
      });
    const results = await Promise.all([task('a'), task('b'), task('c')]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(lock.free).toBe(true);
  });

  it('when a handler fails, then the next one still runs and the lock frees', async () => {
    const lock = new HandlerLock();
    const failed = lock.run(async () => {
      throw new Error('boom');
    });
    const next = lock.run(async () => 'ok');
    expect(lock.free).toBe(false);
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
    await Promise.resolve();
    expect(lock.free).toBe(true);
  });
});
