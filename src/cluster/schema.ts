import { spawn } from 'node:child_process';
import { Client as PgClient } from 'pg';
import type { TemporalDatabases } from './server-config';

/** The schemas temporal-sql-tool carries inside itself (`--schema-name`), one per database. */
const SCHEMAS = [
  { database: 'main', schemaName: 'postgresql/v12/temporal' },
  { database: 'visibility', schemaName: 'postgresql/v12/visibility' },
] as const;

/**
 * Creates Temporal's two databases if they are missing and brings their schemas to the tool's
 * version, as the auto-setup image of docker-compose.yml does: `setup-schema -v 0.0` once (the
 * version tables), then `update-schema` (only the versions not yet applied, so it is safe on
 * every start and is how a server upgrade migrates).
 */
export async function setUpTemporalSchemas(sqlTool: string, db: TemporalDatabases, say: (line: string) => void): Promise<void> {
  for (const { database, schemaName } of SCHEMAS) {
    const name = db[database];
    const fresh = await ensureDatabase(db, name);
    if (fresh) {
      say(`Creating Temporal's schema in database ${name} (${schemaName})`);
      await runSqlTool(sqlTool, db, name, ['setup-schema', '-v', '0.0']);
    }
    await runSqlTool(sqlTool, db, name, ['update-schema', '--schema-name', schemaName]);
  }
}

/** Creates `name` unless it exists; true when it had no schema yet (new, or a setup cut short). */
async function ensureDatabase(db: TemporalDatabases, name: string): Promise<boolean> {
  const admin = new PgClient({ host: db.host, port: db.port, user: db.user, password: db.password, database: 'postgres' });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    // Identifiers cannot be bound: the name is ours (temporalDatabasesFor), quoted all the same.
    if (!rowCount) await admin.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
  const client = new PgClient({ host: db.host, port: db.port, user: db.user, password: db.password, database: name });
  await client.connect();
  try {
    const { rows } = await client.query<{ table: string | null }>("select to_regclass('public.schema_version')::text as table");
    return rows[0]?.table === null;
  } finally {
    await client.end();
  }
}

/** One temporal-sql-tool call; the connection (password included) goes by environment, never argv. */
function runSqlTool(sqlTool: string, db: TemporalDatabases, database: string, args: string[]): Promise<void> {
  const env = {
    ...process.env,
    SQL_PLUGIN: 'postgres12',
    SQL_HOST: db.host,
    SQL_PORT: String(db.port),
    SQL_USER: db.user,
    SQL_PASSWORD: db.password,
    SQL_DATABASE: database,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(sqlTool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (b: Buffer) => (output = (output + b.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`temporal-sql-tool ${args.join(' ')} on ${database} failed (exit ${code}): ${output.trim().slice(-1500)}`)),
    );
  });
}
