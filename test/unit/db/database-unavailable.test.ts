import { isDatabaseUnavailable } from '../../../src/db/knex';

const errorSaying = (message: string) => new Error(message);

describe('isDatabaseUnavailable', () => {
  it('when a pool was ended or destroyed under the caller, or a connection dropped, then it is an outage; a bad request is not', () => {
    for (const message of ['Cannot use a pool after calling end on the pool: pool has ended', 'Pool was destroyed', 'Connection terminated unexpectedly'])
      expect(isDatabaseUnavailable(errorSaying(message))).toBe(true);
    for (const message of ['duplicate key value violates unique constraint', 'destroyed before the pool was made'])
      expect(isDatabaseUnavailable(errorSaying(message))).toBe(false);
  });

  it('when an error message repeats "pool" 25,000 times (a Postgres error quoting a hostile value), then it is read in well under 250 ms (the old regex took seconds)', () => {
    const hostile = errorSaying(`duplicate key value: Key (name)=(${'pool'.repeat(25_000)}) already exists`);
    const started = performance.now();
    expect(isDatabaseUnavailable(hostile)).toBe(false);
    expect(performance.now() - started).toBeLessThan(250);
  });
});
