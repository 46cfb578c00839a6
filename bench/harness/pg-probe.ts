import { Client as PgClient } from 'pg';

/**
 * A bench's read-only view of Postgres, on a connection of its own: its polling never waits
 * for, or takes, a connection of the stack's pool.
 */
export abstract class PgProbe {
  constructor(protected readonly db: PgClient) {}

  /** Connects a probe of the calling class. */
  static async connect<T extends PgProbe>(this: new (db: PgClient) => T, databaseUrl: string): Promise<T> {
    const db = new PgClient({ connectionString: databaseUrl });
    await db.connect();
    return new this(db);
  }

  close(): Promise<void> {
    return this.db.end();
  }
}
