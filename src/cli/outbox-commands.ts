import type { Command } from 'commander';
import { z } from 'zod';
import { listParked, MAX_ATTEMPTS, outboxHealth, retryAllParked, retryParked } from '../services/relay';
import { invalid } from '../services/errors';
import type { Config } from '../config';
import { output, parseOptions, withDatabase } from './admin';

const listOptions = z.object({
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(100),
});
const messageId = z.string().uuid();

/**
 * `klaxon outbox`: the ingestion outbox's backlog and its parked messages (dead letters), and
 * `klaxon outbox retry ID|--all` to hand parked messages back to the running relay.
 */
export function registerOutboxCommands(program: Command, getConfig: () => Config): void {
  const outbox = program
    .command('outbox')
    .description(`the ingestion outbox: pending count, oldest pending age, and messages parked after ${MAX_ATTEMPTS} failed deliveries`)
    .option('--limit <n>', 'parked messages listed, 1 to 1000', '100')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(listOptions, raw);
      const result = await withDatabase(getConfig(), async (orm) => ({ ...(await outboxHealth(orm)), messages: await listParked(orm, { limit: o.limit }) }));
      output(result, raw.json);
    });
  outbox
    .command('retry [id]')
    .description('deliver a parked message again (or every one, with --all): the relay takes it within a second')
    .option('--all', 'every parked message')
    .option('--json', 'print one JSON object')
    .action(async (id: string | undefined, raw) => {
      if (!id === !raw.all) throw invalid('give one parked message id, or --all');
      if (id && !messageId.safeParse(id).success) throw invalid(`${id} is not an outbox message id (a UUID, as \`klaxon outbox\` lists them)`);
      output(await withDatabase(getConfig(), (orm) => (id ? retryParked(orm, id) : retryAllParked(orm))), raw.json);
    });
}
