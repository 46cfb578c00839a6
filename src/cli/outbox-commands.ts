import type { Command } from 'commander';
import { z } from 'zod';
import { listDevOutbox } from '../../activities/notify/dev-outbox';
import type { Config } from '../config';
import { output, parseOptions, withDatabase } from './admin';

const listOptions = z.object({
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(20),
});

/** `klaxon outbox list`: what channels without provider credentials would have sent. */
export function registerOutboxCommands(program: Command, getConfig: () => Config): void {
  const outbox = program.command('outbox').description('the dev outbox: pages of channels without provider credentials');
  outbox
    .command('list')
    .description('recent dev-outbox messages, newest first')
    .option('--limit <n>', 'how many, 1 to 1000', '20')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(listOptions, raw);
      output({ messages: await withDatabase(getConfig(), (orm) => listDevOutbox(orm, { limit: o.limit })) }, raw.json);
    });
}
