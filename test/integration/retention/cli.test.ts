import { noPurgeCounts } from '../../../src/domain/retention';
import { klaxon } from '../../support/cli';
import { NO_ROWS, SEEDED_ROWS, retentionFixture } from '../../support/retention-seed';

// `klaxon retention run`: the operators' way to purge now, against the stack's database.
const fx = retentionFixture();

describe('klaxon retention run', () => {
  it('when rows are past their age, then --json prints what was deleted per table, and a second run deletes nothing', async () => {
    const free = await fx.seed.workspace('FREE');
    const old = await fx.seed.incident(free, 'CLOSED', 12, 8);
    await fx.seed.devDelivery(10);
    await fx.seed.idempotencyRecord(-2);

    const first = await klaxon(['retention', 'run', '--json']);
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split('\n')).toHaveLength(1);
    expect(first.json).toEqual({
      deleted: {
        ...noPurgeCounts(),
        idempotency_records: 1,
        dev_deliveries: 1,
        incidents: 1,
        alerts: 2,
        timeline_entries: 2,
        notifications: 1,
        user_notifications: 1,
        ingest_outbox: 1,
      },
    });
    expect(await fx.seed.rowsOf(old)).toEqual(NO_ROWS);

    const second = await klaxon(['retention', 'run', '--json']);
    expect(second.json).toEqual({ deleted: noPurgeCounts() });
  });

  it.each([
    ['an unknown option', ['retention', 'run', '--days', '3'], {}, /unknown option '--days'/],
    [
      'a callback age shorter than page links live',
      ['retention', 'run', '--json'],
      { RETENTION_CALLBACK_DAYS: '0.5' },
      /RETENTION_CALLBACK_DAYS: must cover PAGE_LINK_TTL_HOURS/,
    ],
    ['an auto-close that is not a positive number', ['retention', 'run', '--json'], { AUTO_CLOSE_HOURS: '0' }, /AUTO_CLOSE_HOURS/],
  ])('when given %s, then a clear error, a non-zero exit and nothing purged', async (_what, args, env, message) => {
    const free = await fx.seed.workspace('FREE');
    const old = await fx.seed.incident(free, 'CLOSED', 12, 8);
    const res = await klaxon(args, env);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(message);
    expect(res.stdout).toBe('');
    expect(await fx.seed.rowsOf(old)).toEqual(SEEDED_ROWS);
  });
});
