import type { Command } from 'commander';
import { z } from 'zod';
import { audited } from './audit';
import { API_KEY_NAME_MAX } from '../domain/api-key';
import type { Config } from '../config';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/workspace';
import { output, parseOptions, withDatabase } from './admin';

const workspace = z.string().uuid('must be a workspace id (UUID)');
const createOptions = z.object({
  org: workspace,
  user: z.string().email('must be the email of a member of the workspace'),
  name: z.string().trim().min(1, 'must not be empty').max(API_KEY_NAME_MAX, `must be at most ${API_KEY_NAME_MAX} characters`).optional(),
});

/**
 * `klaxon apikey create|list|revoke`: API keys for the API-key surface (docs/architecture.md, "Workspaces, roles and credentials").
 * The key is printed once, by create; list shows metadata only.
 */
export function registerApiKeyCommands(program: Command, getConfig: () => Config): void {
  const apikey = program.command('apikey').description('API keys for the API-key surface (API_KEY_API_URL /v1)');
  apikey
    .command('create')
    .requiredOption('--org <id>', 'workspace id')
    .requiredOption('--user <email>', 'the member the key acts as (their role decides what it may change)')
    .option('--name <name>', 'a name people recognise')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(createOptions, raw);
      output(
        await withDatabase(getConfig(), (orm) =>
          audited(
            orm,
            { action: 'api_key.create', targetType: 'api_key', table: 'api_keys', idOf: (r) => r.id, details: (r) => ({ user: o.user, name: r.name }) },
            () => createApiKey(orm, { organizationId: o.org, email: o.user, name: o.name }),
          ),
        ),
        raw.json,
      );
    });
  apikey
    .command('list')
    .requiredOption('--org <id>', 'workspace id')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(z.object({ org: workspace }), raw);
      output({ api_keys: await withDatabase(getConfig(), (orm) => listApiKeys(orm, o.org)) }, raw.json);
    });
  apikey
    .command('revoke <id>')
    .description('the key stops working at once')
    .option('--json', 'print one JSON object')
    .action(async (id: string, raw) => {
      output(
        await withDatabase(getConfig(), (orm) =>
          audited(orm, { action: 'api_key.revoke', targetType: 'api_key', table: 'api_keys', id }, () => revokeApiKey(orm, id)),
        ),
        raw.json,
      );
    });
}
