/**
 * `klaxon api` and `klaxon worker` as separate processes, configured only through their
 * environment, as production runs them. Each keeps its ports across restarts, so a sender's
 * list of API addresses stays valid.
 */
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/paths';
import { Child } from './processes';

/** What every role shares: where Postgres, Temporal and the Twilio fake are. */
export interface SharedEnv {
  databaseUrl: string;
  temporalAddress: string;
  taskQueue: string;
  /** KLAXON_SECRET: several processes must sign page links alike. */
  secret: string;
  /** TWILIO_* pointing at the wire fake. */
  twilio: Record<string, string>;
  /** Any more variables every role gets (the bench: other fakes, LOG_LEVEL, limits, OUTBOX_RELAY). */
  extra?: Record<string, string>;
}

/** Ports of one API process. */
export interface ApiPorts {
  app: number;
  ingest: number;
  apiKey: number;
}

const KLAXON_BIN = path.join(PROJECT_ROOT, 'bin', 'klaxon.js');
/** Under tsx (no current dist/) a worker bundles the workflows with webpack at start: allow for a busy machine. */
const READY_TIMEOUT_MS = 180_000;

/**
 * Only what a process needs from the suite's own environment (PATH, HOME, …): a DATABASE_URL or
 * provider key in the caller's shell must not reach the system under test.
 */
function baseEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'USER', 'NODE_OPTIONS'];
  return Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
}

function roleEnv(shared: SharedEnv, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...baseEnv(),
    KLAXON_DATA_DIR: dataDir,
    DATABASE_URL: shared.databaseUrl,
    TEMPORAL_ADDRESS: shared.temporalAddress,
    TEMPORAL_TASK_QUEUE: shared.taskQueue,
    KLAXON_SECRET: shared.secret,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // The fault suites count every distinct alert's own incident and page: the storm guard
    // (docs/grouping.md), on by default, would fold a burst of one source into one incident.
    STORM_GUARD: 'off',
    ...shared.twilio,
    ...shared.extra,
  };
}

/** One `klaxon api` process (the three listeners and an outbox relay). */
export function apiProcess(name: string, shared: SharedEnv, ports: ApiPorts, runDir: string): Child {
  const env = {
    ...roleEnv(shared, path.join(runDir, name)),
    APP_PORT: String(ports.app),
    INGEST_PORT: String(ports.ingest),
    API_KEY_PORT: String(ports.apiKey),
    APP_URL: `http://127.0.0.1:${ports.app}`,
    INGEST_URL: `http://127.0.0.1:${ports.ingest}`,
    API_KEY_API_URL: `http://127.0.0.1:${ports.apiKey}`,
  };
  return new Child({
    name,
    command: process.execPath,
    args: [KLAXON_BIN, 'api'],
    env,
    cwd: PROJECT_ROOT,
    logFile: path.join(runDir, `${name}.log`),
    readyLine: /Klaxon api is running/,
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
}

/** One `klaxon worker` process (workflows and activities: pages leave from here); `more` adds to its environment. */
export function workerProcess(name: string, shared: SharedEnv, runDir: string, more: Record<string, string> = {}): Child {
  const env = { ...roleEnv(shared, path.join(runDir, name)), ...more };
  return new Child({
    name,
    command: process.execPath,
    args: [KLAXON_BIN, 'worker'],
    env,
    cwd: PROJECT_ROOT,
    logFile: path.join(runDir, `${name}.log`),
    readyLine: /Klaxon worker is running/,
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
}

/** One `klaxon relay` process: the outbox relay alone, for API processes run with OUTBOX_RELAY=off. */
export function relayProcess(name: string, shared: SharedEnv, runDir: string): Child {
  return new Child({
    name,
    command: process.execPath,
    args: [KLAXON_BIN, 'relay'],
    env: roleEnv(shared, path.join(runDir, name)),
    cwd: PROJECT_ROOT,
    logFile: path.join(runDir, `${name}.log`),
    readyLine: /Klaxon relay is running/,
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
}
