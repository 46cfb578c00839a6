import path from 'node:path';
import type { Config } from '../config';
import { resolveDatabase } from './database';
import { ensureTemporalCli } from '../temporal/cli-binary';
import { startDevServer, waitForFrontend } from '../temporal/dev-server';
import { isListening } from '../net';

/** Where Postgres and Temporal are, and how to stop what this process started. */
export interface Infra {
  databaseUrl: string;
  temporalAddress: string;
  embedded: { postgres: boolean; temporal: boolean };
  stop(): Promise<void>;
}

type Say = (line: string) => void;

export { resolveDatabase };

/**
 * Everything a role needs. With `startTemporal`, a dev server is started when TEMPORAL_ADDRESS
 * is unset and none answers on TEMPORAL_PORT; otherwise the configured address is used.
 */
export async function resolveInfra(config: Config, say: Say, { startTemporal }: { startTemporal: boolean }): Promise<Infra> {
  const stops: Array<() => Promise<void>> = [];
  const db = await resolveDatabase(config, say);
  if (db.stop) stops.push(db.stop);
  let temporalAddress = config.temporal.address ?? `127.0.0.1:${config.temporal.port}`;
  let embeddedTemporal = false;
  try {
    if (!config.temporal.address) {
      if (await isListening(config.temporal.port)) {
        await waitForFrontend(temporalAddress, config.temporal.namespace, 30_000);
      } else if (startTemporal) {
        const cliPath = await ensureTemporalCli(config.temporal.cliPath, say);
        say(`Starting the Temporal dev server (data in ${path.join(config.dataDir, 'temporal')})`);
        const server = await startDevServer({
          cliPath,
          dataDir: path.join(config.dataDir, 'temporal'),
          port: config.temporal.port,
          uiPort: config.temporal.uiPort,
          namespace: config.temporal.namespace,
        });
        temporalAddress = server.address;
        embeddedTemporal = true;
        stops.push(server.stop);
      } else {
        throw new Error(`no Temporal server at ${temporalAddress}: run \`klaxon start\` or set TEMPORAL_ADDRESS`);
      }
    }
  } catch (err) {
    await Promise.allSettled(stops.map((s) => s()));
    throw err;
  }
  return {
    databaseUrl: db.url,
    temporalAddress,
    embedded: { postgres: db.embedded, temporal: embeddedTemporal },
    // Stop in reverse order: Temporal before the database it does not use, harmless either way.
    stop: async () => {
      for (const s of stops.reverse()) await s().catch(() => {});
    },
  };
}
