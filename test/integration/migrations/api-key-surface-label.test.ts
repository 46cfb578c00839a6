import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../../src/db/knex';
import { openOrm } from '../../../src/db/orm';
import { responseTimes } from '../../../src/services/status/response-times';

// The API-key surface's response times were stored under the label `legacy`; after the rename
// (src/db/migrations/Migration20261217120000_api_key_surface_label.ts) they answer as `api-key`.
const MIGRATION = 'Migration20261217120000_api_key_surface_label';
let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 2);
});
afterAll(() => orm?.close());

describe('the api-key surface label migration', () => {
  it('when rows written by the old code under `legacy` meet the migration, then they count as `api-key`, added to any row a new process wrote for the same minute', async () => {
    await orm.getMigrator().down({ migrations: [MIGRATION] });
    const db = knexOf(orm);
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
    await db('request_metrics').insert([
      { surface: 'legacy', minute, le_ms: 10, count: 4, sum_ms: 12 },
      { surface: 'legacy', minute, le_ms: 5000, count: 3, sum_ms: 9000 },
      // A process of the new code, running beside the old one during a rolling deploy.
      { surface: 'api-key', minute, le_ms: 10, count: 1, sum_ms: 3 },
      { surface: 'app', minute, le_ms: 10, count: 2, sum_ms: 6 },
    ]);
    await orm.getMigrator().up({ migrations: [MIGRATION] });

    const rows = await db('request_metrics').select('surface', 'le_ms', 'count', 'sum_ms').orderBy(['surface', 'le_ms']);
    expect(rows).toEqual([
      { surface: 'api-key', le_ms: 10, count: 5, sum_ms: 15 },
      { surface: 'api-key', le_ms: 5000, count: 3, sum_ms: 9000 },
      { surface: 'app', le_ms: 10, count: 2, sum_ms: 6 },
    ]);
    const answered = await responseTimes(orm);
    expect(answered['api-key']['5m'].count).toBe(8);
    expect(Object.keys(answered)).toEqual(['app', 'ingest', 'api-key']);
  });
});
