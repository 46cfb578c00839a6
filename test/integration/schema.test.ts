import { openOrm } from '../../src/db/orm';

describe('migrations and entities', () => {
  it('when every migration has run, then the schema matches the entity definitions exactly', async () => {
    const orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 1);
    try {
      const drift = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
      expect(drift.trim()).toBe('');
      expect(await orm.getMigrator().getPendingMigrations()).toEqual([]);
    } finally {
      await orm.close();
    }
  });
});
