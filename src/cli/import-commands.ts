import type { Command } from 'commander';
import { z } from 'zod';
import type { Config } from '../config';
import type { ImportSystem } from '../domain/importers/plan';
import { importFrom } from '../integrations/import-sources';
import { createChannelSender } from '../integrations/registry';
import { accountMailer } from '../services/accounts';
import { SYSTEM_CLI } from '../services/audit';
import { createSealer } from '../services/inbound-webhooks';
import { reportText } from '../services/importers';
import { resolveSecret } from '../stack/secret';
import { parseOptions, withDatabase } from './admin';

// A credential is one line of printable characters; its value is never echoed in an error.
const credential = z
  .string()
  .min(1, 'is required')
  .max(512, 'must be at most 512 characters')
  .refine((s) => /^[\x21-\x7e]+$/.test(s), 'must be one line of printable characters');
const common = {
  org: z.string().uuid('must be a workspace id (UUID)'),
  apiUrl: z.string().max(2048, 'must be at most 2048 characters').optional(),
  dryRun: z.boolean().optional(),
  json: z.boolean().optional(),
};
const schemas = {
  pagerduty: z.object({ ...common, apiToken: credential }),
  opsgenie: z.object({ ...common, apiKey: credential }),
};

async function run(config: Config, system: ImportSystem, o: { org: string; apiUrl?: string; dryRun?: boolean; json?: boolean }, secret: string) {
  const report = await withDatabase(config, async (orm) => {
    // Invitations go out the way account emails do: the email provider, else the dev inbox.
    const email = createChannelSender(config.notify, orm, 'email');
    const sealer = createSealer(resolveSecret(config));
    try {
      return await importFrom(
        { orm, mailer: accountMailer(email), appUrl: config.urls.app, ingestBaseUrl: config.urls.ingest, seal: (s) => sealer.seal(s) },
        { organizationId: o.org, system, dryRun: o.dryRun === true, actor: { audit: SYSTEM_CLI, userId: null, role: 'BILLING_OWNER' } },
        { credential: secret, apiUrl: o.apiUrl, allowPrivate: config.targets.allowPrivate },
      );
    } finally {
      await email.close?.();
    }
  });
  process.stdout.write(o.json ? JSON.stringify(report) + '\n' : reportText(system, report, o.dryRun === true));
}

/** `klaxon import pagerduty|opsgenie`: bring a PagerDuty or Opsgenie account into a workspace (docs/importers.md). */
export function registerImportCommands(program: Command, getConfig: () => Config): void {
  const imports = program.command('import').description('bring users, teams, schedules, escalation policies and services in from PagerDuty or Opsgenie');
  imports
    .command('pagerduty')
    .description('import from PagerDuty (REST API v2); a re-run updates what it imported')
    .requiredOption('--api-token <token>', 'a PagerDuty REST API token (read access is enough)')
    .option('--api-url <url>', 'the REST API base URL', 'https://api.pagerduty.com')
    .requiredOption('--org <id>', 'the Klaxon workspace to import into')
    .option('--dry-run', 'print the plan and write nothing')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(schemas.pagerduty, raw);
      await run(getConfig(), 'pagerduty', o, o.apiToken);
    });
  imports
    .command('opsgenie')
    .description('import from Opsgenie (REST API v2); a re-run updates what it imported')
    .requiredOption('--api-key <key>', 'an Opsgenie API key (an API integration’s key with read access)')
    .option('--api-url <url>', 'the REST API base URL (https://api.eu.opsgenie.com for the EU instance)', 'https://api.opsgenie.com')
    .requiredOption('--org <id>', 'the Klaxon workspace to import into')
    .option('--dry-run', 'print the plan and write nothing')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(schemas.opsgenie, raw);
      await run(getConfig(), 'opsgenie', o, o.apiKey);
    });
}
