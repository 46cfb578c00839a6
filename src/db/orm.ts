import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import path from 'node:path';
import { ENTITIES } from './entities';

/** ORM options for one database URL; migrations are TypeScript files committed in ./migrations. */
export function ormOptions(databaseUrl: string, poolMax = 10): Options {
  return {
    driver: PostgreSqlDriver,
    clientUrl: databaseUrl,
    entities: ENTITIES,
    extensions: [Migrator],
    discovery: { warnWhenNoEntities: true },
    // Projections are written by activities that fork the entity manager per call.
    allowGlobalContext: false,
    // Fail fast when Postgres is away: ingestion answers 503 and the sender retries.
    pool: { min: 0, max: poolMax, acquireTimeoutMillis: 5000 },
    debug: false,
    migrations: {
      // Beside this module in either tree: src/db/migrations/*.ts from the sources,
      // dist/src/db/migrations/*.js built; the glob takes both extensions. The same folder for
      // path and pathTs on purpose: MikroORM uses pathTs only when it spots a TS runner (a .ts
      // file in argv, ts-node), which `node bin/klaxon.js` under tsx is not, so a distinct
      // `path` would send the sources to the build's copies, stale or missing.
      path: path.join(__dirname, 'migrations'),
      pathTs: path.join(__dirname, 'migrations'),
      glob: '!(*.d).{js,ts}',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
      silent: true,
    },
  };
}

/** Connects to Postgres. */
export async function openOrm(databaseUrl: string, poolMax?: number): Promise<MikroORM> {
  return MikroORM.init(ormOptions(databaseUrl, poolMax));
}

/** Applies every pending migration; returns the names applied. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}

export type { MikroORM };
