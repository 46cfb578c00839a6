import type { Client, Connection } from '@temporalio/client';
import { Command, CommanderError } from 'commander';
import { createHeartbeat, setHeartbeatPaused } from '../services/ingest';
import { loadConfig, type Config } from '../config';
import { DomainError } from '../services/errors';
import { admin, bootstrap, createCliSource, output, parseOptions, rotateCliSource, schemas, withDatabase } from './admin';
import { FORM_B_CHANNEL_LIST } from '../domain/paging/form-b-channels';
import { registerApiKeyCommands } from './apikey-commands';
import { audited } from './audit';
import { SYSTEM_CLI } from '../services/audit';
import { registerImportCommands } from './import-commands';
import { registerInboxCommands } from './inbox-commands';
import { registerOutboxCommands } from './outbox-commands';
import { registerPagingCommands } from './paging-commands';
import { registerRetentionCommands } from './retention-commands';
import { registerScheduleCommands } from './schedule-commands';
import { exitWhenFlushed, quietOnClosedPipe } from './exit';

// Roles pull in the Temporal worker, and the client alone takes a few hundred milliseconds to
// load: commands that never talk to Temporal should not pay for either.
const roles = (): typeof import('../stack/roles') => require('../stack/roles');
const temporalClient = (): typeof import('@temporalio/client') => require('@temporalio/client');

/** A whole number option within bounds, or a usage error naming the option. */
function count(option: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new CommanderError(2, 'klaxon.invalidOption', `${option} must be a whole number from ${min} to ${max}`);
  return n;
}

/** The `klaxon` command (package bin). */
export function buildProgram(getConfig: () => Config): Command {
  const program = new Command('klaxon').description('Klaxon: alerting and incident response on Temporal').showHelpAfterError().exitOverride();

  program
    .command('start')
    .description('run everything: embedded Postgres and Temporal if unset, migrations, worker, listeners')
    .action(async () => roles().runRole(getConfig(), 'start'));
  program
    .command('api')
    .description('run the HTTP listeners only')
    .action(async () => roles().runRole(getConfig(), 'api'));
  program
    .command('worker')
    .description('run the Temporal worker only')
    .action(async () => roles().runRole(getConfig(), 'worker'));
  program
    .command('relay')
    .description('run the outbox relay only (for `klaxon api` processes run with OUTBOX_RELAY=off)')
    .action(async () => roles().runRole(getConfig(), 'relay'));
  program
    .command('cluster')
    .description('run the production shape here: a Temporal server on PostgreSQL, N api and M worker processes (docs/cluster.md)')
    .option('--apis <n>', 'klaxon api processes', '1')
    .option('--workers <n>', 'klaxon worker processes', '2')
    .option('--shards <n>', 'history shards of a new cluster (fixed once its database exists)', '4')
    .action(async (opts: { apis: string; workers: string; shards: string }) => {
      const { runCluster } = require('../cluster/run') as typeof import('../cluster/run');
      await runCluster(getConfig(), {
        apis: count('--apis', opts.apis, 1, 10),
        workers: count('--workers', opts.workers, 1, 16),
        shards: count('--shards', opts.shards, 1, 512),
      });
    });
  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const applied = await roles().runMigrate(getConfig());
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
    });

  program
    .command('bootstrap')
    .description('create a workspace with an admin, team, service, alert source and API token')
    .requiredOption('--org <name>', 'workspace name')
    .requiredOption('--email <email>', 'admin email')
    .requiredOption('--password <password>', 'admin password (8+ characters)')
    .option('--plan <plan>', 'FREE, STARTER, PRO or BUSINESS', 'PRO')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const config = getConfig();
      const opts = parseOptions(schemas.bootstrap, raw);
      output(
        await withDatabase(config, (orm) =>
          audited(
            orm,
            {
              action: 'workspace.bootstrap',
              targetType: 'organization',
              table: 'organizations',
              idOf: (r) => r.organization_id,
              details: (r) => ({ admin: r.user.email }),
            },
            () => bootstrap(orm, config, opts),
          ),
        ),
        raw.json,
      );
    });

  const org = program.command('org').description('workspaces');
  org
    .command('create')
    .description('a workspace ready to page: a team named after it, "Default service" and the "Default" escalation policy; the first `user add` joins the team')
    .requiredOption('--name <name>', 'workspace name')
    .requiredOption('--plan <plan>', 'FREE, STARTER, PRO or BUSINESS')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const opts = parseOptions(schemas.orgCreate, raw);
      output(
        await withDatabase(getConfig(), (orm) =>
          audited(
            orm,
            {
              action: 'workspace.create',
              targetType: 'organization',
              table: 'organizations',
              idOf: (r) => r.id,
              details: (r) => ({ name: r.name, plan: r.plan }),
            },
            () => admin.createReadyWorkspace(orm, opts),
          ),
        ),
        raw.json,
      );
    });

  org
    .command('plan')
    .description('change a workspace’s plan (the operator’s way: the dashboard cannot raise a plan without billing)')
    .requiredOption('--org <id>', 'workspace id')
    .requiredOption('--plan <plan>', 'FREE, STARTER, PRO or BUSINESS')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(schemas.orgPlan, raw);
      const changed = await withDatabase(getConfig(), (orm) =>
        admin.changePlan(orm, { organizationId: o.org, actor: SYSTEM_CLI, plan: o.plan, upgrades: 'allowed' }),
      );
      output({ organization_id: o.org, from: changed.from, plan: changed.view.plan, changed: changed.changed, over_limits: changed.over }, raw.json);
    });

  const user = program.command('user').description('people');
  user
    .command('add')
    .requiredOption('--org <id>', 'workspace id')
    .requiredOption('--email <email>', 'email')
    .requiredOption('--password <password>', 'password (8+ characters)')
    .requiredOption('--role <role>', 'BILLING_OWNER, ACCOUNT_ADMIN, TEAM_MANAGER or MEMBER')
    .option('--unverified', 'leave the account unverified')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(schemas.userAdd, raw);
      const result = await withDatabase(getConfig(), async (orm) => {
        const added = await audited(
          orm,
          { action: 'member.add', targetType: 'user', table: 'organizations', id: o.org, details: () => ({ email: o.email, role: o.role }) },
          () => admin.addUser(orm, { organizationId: o.org, email: o.email, password: o.password, role: o.role, verified: !o.unverified }),
        );
        // The first person in a workspace made by `org create` is its on-call (src/services/workspace/ready-workspace.ts).
        return { ...added, paging: await admin.adoptFirstMember(orm, { organizationId: o.org, user: added, actor: SYSTEM_CLI }) };
      });
      output(result, raw.json);
    });

  const token = program.command('token').description('customer API tokens');
  token
    .command('create')
    .requiredOption('--org <id>', 'workspace id')
    .requiredOption('--user <email>', 'an Account Admin or Billing Owner of the workspace')
    .requiredOption('--access <access>', 'READ_ONLY or READ_WRITE')
    .requiredOption('--days <n>', 'lifetime in days, 1 to 30')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(schemas.tokenCreate, raw);
      const result = await withDatabase(getConfig(), (orm) =>
        audited(
          orm,
          {
            action: 'api_token.create',
            targetType: 'api_token',
            table: 'api_tokens',
            idOf: (r) => r.id,
            details: (r) => ({ user: o.user, access: r.access, expires_at: r.expires_at }),
          },
          () => admin.createApiToken(orm, { organizationId: o.org, email: o.user, access: o.access, days: o.days }),
        ),
      );
      output(result, raw.json);
    });
  token
    .command('list')
    .requiredOption('--org <id>', 'workspace id')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(schemas.tokenList, raw);
      output({ tokens: await withDatabase(getConfig(), (orm) => admin.listApiTokens(orm, o.org)) }, raw.json);
    });
  token
    .command('revoke <id>')
    .option('--json', 'print one JSON object')
    .action(async (id: string, raw) => {
      output(
        await withDatabase(getConfig(), (orm) =>
          audited(orm, { action: 'api_token.revoke', targetType: 'api_token', table: 'api_tokens', id }, () => admin.revokeApiToken(orm, id)),
        ),
        raw.json,
      );
    });

  const source = program.command('source').description('alert sources (secret ingestion URLs)');
  source
    .command('create')
    .requiredOption('--service <id>', 'the service that owns the source')
    .requiredOption('--name <name>', 'a name people recognise')
    .option('--channels <list>', `Form B: page these channels (${FORM_B_CHANNEL_LIST}) by severity instead of the service policy`)
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const config = getConfig();
      const o = parseOptions(schemas.sourceCreate, raw);
      output(
        await withDatabase(config, (orm) =>
          audited(
            orm,
            {
              action: 'source.create',
              targetType: 'source',
              table: 'alert_sources',
              idOf: (r) => r.id,
              details: () => ({ name: o.name, service_id: o.service }),
            },
            () => createCliSource(orm, config, o),
          ),
        ),
        raw.json,
      );
    });
  source
    .command('rotate <id>')
    .description('replace the secret and the routing key: the old URL and key stop working at once')
    .option('--json', 'print one JSON object')
    .action(async (id: string, raw) => {
      const config = getConfig();
      output(
        await withDatabase(config, (orm) =>
          audited(orm, { action: 'source.rotate', targetType: 'source', table: 'alert_sources', id }, () => rotateCliSource(orm, config, id)),
        ),
        raw.json,
      );
    });

  const heartbeat = program.command('heartbeat').description('check-in URLs that open an incident when they go quiet');
  heartbeat
    .command('create')
    .requiredOption('--service <id>', 'the service that owns it')
    .requiredOption('--period-seconds <n>', 'expected time between check-ins')
    .option('--grace-seconds <n>', 'extra time before a check-in counts as missed', '60')
    .option('--name <name>', 'a name people recognise', 'heartbeat')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const config = getConfig();
      const o = parseOptions(schemas.heartbeatCreate, raw);
      output(
        await withDatabase(config, (orm) =>
          audited(
            orm,
            {
              action: 'heartbeat.create',
              targetType: 'heartbeat',
              table: 'heartbeats',
              idOf: (r) => r.id,
              details: () => ({ name: o.name, service_id: o.service }),
            },
            () =>
              createHeartbeat(orm, {
                serviceId: o.service,
                name: o.name,
                periodSeconds: o.periodSeconds,
                graceSeconds: o.graceSeconds,
                ingestBaseUrl: config.urls.ingest,
              }),
          ),
        ),
        raw.json,
      );
    });
  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    heartbeat
      .command(`${verb} <id>`)
      .option('--json', 'print one JSON object')
      .action(async (id: string, raw) => {
        const config = getConfig();
        output(
          await withDatabase(config, (orm) =>
            audited(orm, { action: `heartbeat.${verb}`, targetType: 'heartbeat', table: 'heartbeats', id }, () =>
              withTemporalIfReachable(config, (temporal) => setHeartbeatPaused(orm, temporal, id, paused)),
            ),
          ),
          raw.json,
        );
      });
  }

  registerPagingCommands(program, getConfig);
  registerScheduleCommands(program, getConfig);
  registerInboxCommands(program, getConfig);
  registerApiKeyCommands(program, getConfig);
  registerRetentionCommands(program, getConfig);
  registerOutboxCommands(program, getConfig);
  registerImportCommands(program, getConfig);
  return program;
}

/**
 * Runs with a Temporal client when the stack's server answers, else without: a paused heartbeat
 * is also refused by its activity, so the database alone already stops new incidents.
 */
async function withTemporalIfReachable<T>(config: Config, fn: (temporal: Client | undefined) => Promise<T>): Promise<T> {
  const address = config.temporal.address ?? `127.0.0.1:${config.temporal.port}`;
  const { Client: TemporalClient, Connection: TemporalConnection } = temporalClient();
  let connection: Connection | undefined;
  try {
    connection = await TemporalConnection.connect({ address, connectTimeout: '2s' });
  } catch {
    process.stderr.write(`[klaxon] Temporal at ${address} did not answer: updated the database only\n`);
  }
  try {
    return await fn(connection ? new TemporalClient({ connection, namespace: config.temporal.namespace }) : undefined);
  } finally {
    await connection?.close();
  }
}

/** Runs the CLI; every failure is one readable line on stderr and a non-zero exit, always after the output is flushed. */
export async function main(argv: string[]): Promise<void> {
  let config: Config | undefined;
  const getConfig = () => {
    if (config) return config;
    config = loadConfig();
    // Said once, on stderr, whatever the command: stdout stays the command's answer (--json).
    for (const warning of config.warnings) process.stderr.write(`klaxon: warning: ${warning}\n`);
    return config;
  };
  quietOnClosedPipe();
  try {
    await buildProgram(getConfig).parseAsync(argv);
    await exitWhenFlushed(0);
  } catch (err) {
    if (err instanceof CommanderError) return exitWhenFlushed(err.exitCode);
    const message = err instanceof DomainError ? err.message : err instanceof Error ? err.message : String(err);
    process.stderr.write(`klaxon: error: ${message}\n`);
    await exitWhenFlushed(err instanceof DomainError ? 2 : 1);
  }
}
