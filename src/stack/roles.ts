import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { checkIntegrationEnv, describeChannels } from '../integrations/wiring';
import { PROJECT_ROOT } from '../paths';
import { installTemporalRuntime } from '../temporal/worker';
import type { Config } from '../config';
import { migrate, openOrm } from '../db/orm';
import { createLogger } from '../logger';
import { checkServingHealth, type ServingHealth } from '../health/serving';
import { allowInsecureHttpOf, bootStack, hostOf, type Role } from './boot';
import { resolveDatabase, type Infra } from './infra';
import { waitForSignal } from './process-signals';

const say = (line: string) => process.stdout.write(`[klaxon] ${line}\n`);

/**
 * Runs one role of docs/architecture.md, "Processes and surfaces" until SIGINT/SIGTERM. `start` brings up everything,
 * starting embedded Postgres and the Temporal dev server when they are not configured.
 */
export async function runRole(config: Config, role: Role): Promise<void> {
  // Every role: integrations' own variables fail before anything starts (src/config.ts leaves them to their folders).
  checkIntegrationEnv(config.notify);
  if (role === 'start' || role === 'api') buildDashboardIfStale();
  const logger = createLogger(config.logLevel);
  installTemporalRuntime(logger);
  const stack = await bootStack(config, role, { logger, say });
  // `start` runs its own worker: say it is running once /readyz would say so (the worker polling).
  if (role === 'start' && stack.temporal)
    await untilReady(() => checkServingHealth({ orm: stack.orm, temporal: stack.temporal!, taskQueue: config.temporal.taskQueue }));
  printBanner(config, role, stack.infra);
  await waitForSignal();
  say('Stopping…');
  await stack.stop();
  say('Stopped.');
}

/**
 * The dashboard is built by `npm install` (prepare); a checkout whose ui/ changed since is rebuilt
 * here (half a second), so the page at `/` is never older than its sources.
 */
function buildDashboardIfStale(): void {
  const script = path.join(PROJECT_ROOT, 'bin', 'build-ui.js');
  if (!existsSync(script)) return;
  const run = spawnSync(process.execPath, [script, '--if-stale'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (run.status !== 0) say('The dashboard could not be built; the APIs run without it (see the error above).');
}

/** What the banner says of plain HTTP on the API-key surface. */
function apiKeyTransportNote(config: Config, role: Role): string {
  const tls = config.apiKey.tls ? 'serving HTTPS directly (TLS_CERT_FILE); ' : '';
  const proxies = config.trustedProxies.length ? `HTTPS via trusted proxies ${config.trustedProxies.join(', ')}; ` : '';
  return allowInsecureHttpOf(config, role) === 'loopback'
    ? `${tls}${proxies}plain HTTP allowed from loopback only (ALLOW_INSECURE_HTTP=loopback)`
    : `${tls}${proxies}HTTPS only: plain HTTP is refused (ALLOW_INSECURE_HTTP=never)`;
}

/** What the banner says of the address the listeners bind (HOST). */
function listeningNote(config: Config, role: Role): string {
  const host = hostOf(config, role);
  if (config.host) return `${host} (HOST)`;
  return role === 'start'
    ? `${host} only: this machine (set HOST=0.0.0.0 to open the listeners to the network)`
    : `${host}: every interface (HOST to narrow it)`;
}

function printBanner(config: Config, role: Role, infra: Infra) {
  const lines = [`Klaxon ${role} is running.`];
  if (role === 'relay')
    lines.push('  Outbox relay     delivering accepted alert events to their incident workflows (woken by `klaxon api` with OUTBOX_RELAY=off)');
  if (role === 'start' || role === 'api') {
    lines.push(
      `  Dashboard        ${config.urls.app}/`,
      `  Customer API v1  ${config.urls.app}/api/v1   (OpenAPI: ${config.urls.app}/api/v1/openapi.json)`,
      `  Ingestion        ${config.urls.ingest}/{webhook_token}`,
      `  Legacy API       ${config.urls.apiKey}/v1   (OpenAPI: ${config.urls.apiKey}/v1/openapi.json; Form B: ${config.urls.apiKey}/webhook/{webhook_id})`,
      `                   ${apiKeyTransportNote(config, role)}`,
      `  Health           ${config.urls.app}/healthz   ${config.urls.app}/readyz`,
      `  Listening on     ${listeningNote(config, role)}`,
    );
  }
  lines.push(
    `  Temporal         ${infra.temporalAddress} (namespace ${config.temporal.namespace}, task queue ${config.temporal.taskQueue})${infra.embedded.temporal ? ', embedded dev server' : ''}`,
    `  Temporal UI      ${config.temporal.uiUrl}`,
    `  Postgres         ${infra.embedded.postgres ? `embedded, data in ${config.dataDir}/pg` : 'DATABASE_URL'}`,
  );
  // Pages leave from the worker, so the roles that run it say where each channel goes.
  if (role === 'start' || role === 'worker') lines.push(...describeChannels(config.notify).map((line) => `  ${line}`));
  lines.push('  Press Ctrl-C to stop.');
  for (const line of lines) say(line);
}

/** Waits up to 30 s for serving health (Postgres, Temporal, a worker); past that, says what is missing and goes on. */
async function untilReady(check: () => Promise<ServingHealth>): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const report = await check();
    if (report.ready) return;
    if (Date.now() > deadline) {
      say(`Not ready yet (waiting for: ${report.missing.join(', ')}); /readyz answers 503 until then.`);
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** `klaxon migrate`: applies pending migrations and exits. */
export async function runMigrate(config: Config): Promise<string[]> {
  const db = await resolveDatabase(config, say);
  const orm = await openOrm(db.url);
  try {
    return await migrate(orm);
  } finally {
    await orm.close();
    await db.stop?.();
  }
}
