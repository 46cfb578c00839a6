import type { Config } from '../config';
import { useEmbeddedPostgres } from '../embedded/postgres';

type Say = (line: string) => void;

/** Postgres: DATABASE_URL, else the embedded server under KLAXON_DATA_DIR (started if needed). */
export async function resolveDatabase(config: Config, say: Say): Promise<{ url: string; embedded: boolean; stop?: () => Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false };
  const pg = await useEmbeddedPostgres(config.dataDir, say);
  return { url: pg.url, embedded: true, stop: pg.stop };
}
