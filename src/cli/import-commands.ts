import type { Command } from 'commander';
import { z } from 'zod';
import type { Config } from '../config';
import { importFrom } from '../integrations/import-sources';
import { createChannelSender, importers } from '../integrations/wiring';
import type { Importer } from '../integrations/types';
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

/** The options of `klaxon import <system>`: the importer's credential option (`--api-token` → `apiToken`) and the common ones. */
const schemaOf = (importer: Importer) => z.object({ ...common, [credentialKey(importer)]: credential });

/** The key commander gives an importer's credential option: `--api-token <token>` → `apiToken`. */
const credentialKey = (importer: Importer) =>
  importer.credential.option
    .split(' ')[0]
    .slice(2)
    .split('-')
    .map((word, i) => (i === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('');

async function run(config: Config, importer: Importer, o: { org: string; apiUrl?: string; dryRun?: boolean; json?: boolean }, secret: string) {
  const report = await withDatabase(config, async (orm) => {
    // Invitations go out the way account emails do: the email provider, else the dev inbox.
    const email = createChannelSender(config.notify, orm, 'email');
    const sealer = createSealer(resolveSecret(config));
    try {
      return await importFrom(
        { orm, mailer: accountMailer(email), appUrl: config.urls.app, ingestBaseUrl: config.urls.ingest, seal: (s) => sealer.seal(s) },
        { organizationId: o.org, system: importer.system, dryRun: o.dryRun === true, actor: { audit: SYSTEM_CLI, userId: null, role: 'BILLING_OWNER' } },
        { credential: secret, apiUrl: o.apiUrl, allowPrivate: config.targets.allowPrivate },
      );
    } finally {
      await email.close?.();
    }
  });
  process.stdout.write(o.json ? JSON.stringify(report) + '\n' : reportText(importer.label, report, o.dryRun === true));
}

/** `klaxon import <system>`, one command per importer in the registry (docs/importers.md): bring an account of another tool into a workspace. */
export function registerImportCommands(program: Command, getConfig: () => Config): void {
  const all = importers();
  const imports = program
    .command('import')
    .description(`bring users, teams, schedules, escalation policies and services in from ${all.map((i) => i.label).join(' or ')}`);
  for (const importer of all) {
    imports
      .command(importer.system)
      .description(`import from ${importer.label} (REST API v2); a re-run updates what it imported`)
      .requiredOption(importer.credential.option, importer.credential.help)
      .option('--api-url <url>', importer.apiUrlHelp, importer.defaultUrl)
      .requiredOption('--org <id>', 'the Klaxon workspace to import into')
      .option('--dry-run', 'print the plan and write nothing')
      .option('--json', 'print one JSON object')
      .action(async (raw) => {
        const o = parseOptions(schemaOf(importer), raw) as z.infer<ReturnType<typeof schemaOf>> & Record<string, string>;
        await run(getConfig(), importer, o, o[credentialKey(importer)]);
      });
  }
}
