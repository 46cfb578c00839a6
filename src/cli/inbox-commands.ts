import type { Command } from 'commander';
import { z } from 'zod';
import { listDevInbox } from '../services/dev-inbox';
import type { Config } from '../config';
import { output, parseOptions, withDatabase } from './admin';

const listOptions = z.object({
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(20),
});

/** `klaxon inbox list`: what channels without provider credentials would have sent. */
export function registerInboxCommands(program: Command, getConfig: () => Config): void {
  const inbox = program.command('inbox').description('the dev inbox: pages of channels without provider credentials');
  inbox
    .command('list')
    .description('recent dev-inbox messages, newest first')
    .option('--limit <n>', 'how many, 1 to 1000', '20')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(listOptions, raw);
      output({ messages: await withDatabase(getConfig(), (orm) => listDevInbox(orm, { limit: o.limit })) }, raw.json);
    });
}
