import { createDevInboxSender } from '../../../src/services/dev-inbox';
import { openOrm, type MikroORM } from '../../../src/db/orm';
import { knexOf } from '../../../src/db/knex';
import { klaxon } from '../../support/cli';

let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 2);
});
afterAll(() => orm.close());

const count = async () => Number((await knexOf(orm)('dev_deliveries').count({ n: '*' }))[0].n);

describe('klaxon inbox list', () => {
  it('when pages went to the dev inbox, then --json prints the newest first, --limit caps them', async () => {
    const sender = createDevInboxSender(orm, 'email');
    for (const n of [1, 2]) {
      await sender.send({ notificationId: crypto.randomUUID(), channel: 'email', to: 'a@example.test', subject: `cli ${n}`, text: `cli body ${n}` });
      await new Promise((r) => setTimeout(r, 5));
    }
    const res = await klaxon(['inbox', 'list', '--limit', '1', '--json']);
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    expect(res.json.messages).toEqual([
      {
        id: expect.any(String),
        channel: 'email',
        to: 'a@example.test',
        subject: 'cli 2',
        body: 'cli body 2',
        payload: expect.objectContaining({ subject: 'cli 2' }),
        created_at: expect.stringMatching(/Z$/),
      },
    ]);
  });

  it.each([
    ['0', /--limit: must be at least 1/],
    ['many', /--limit: .*number/],
    ['2.5', /--limit: must be a whole number/],
  ])('when --limit is %s, then a clear error, a non-zero exit and nothing changes', async (limit, message) => {
    const before = await count();
    const res = await klaxon(['inbox', 'list', '--limit', limit, '--json']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(message);
    expect(res.stdout).toBe('');
    expect(await count()).toBe(before);
  });
});
