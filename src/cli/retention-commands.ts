import type { Command } from 'commander';
import type { Config } from '../config';
import { purgeExpiredNow } from '../services/retention';
import { output, withDatabase } from './admin';

/** `klaxon retention run`: the hourly purge, now, for operators (docs/architecture.md, "Retention"). */
export function registerRetentionCommands(program: Command, getConfig: () => Config): void {
  const retention = program.command('retention').description('purging what is past its retention (hourly on a Temporal Schedule)');
  retention
    .command('run')
    .description('purge now: expired idempotency records, old delivered outbox rows, callbacks, dev inbox, CLOSED incidents past their plan window')
    .option('--json', 'print one JSON object')
    .action(async (raw: { json?: boolean }) => {
      const config = getConfig();
      const { deleted } = await withDatabase(config, (orm) => purgeExpiredNow(orm, config.retention));
      output({ deleted }, raw.json);
    });
}
