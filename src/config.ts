import path from 'node:path';
import { z } from 'zod';

/** Everything Klaxon reads from the environment, parsed once at startup (style rule 12). */
const envSchema = z.object({
  KLAXON_DATA_DIR: z.string().default('.klaxon'),
  DATABASE_URL: z.string().url().optional(),
  TEMPORAL_ADDRESS: z.string().optional(),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('klaxon'),
  TEMPORAL_PORT: z.coerce.number().int().min(1).max(65535).default(7233),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
  TEMPORAL_UI_URL: z.string().url().optional(),
  TEMPORAL_CLI_PATH: z.string().optional(),
  APP_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  INGEST_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  LEGACY_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  HOST: z.string().default('0.0.0.0'),
  APP_URL: z.string().url().optional(),
  INGEST_URL: z.string().url().optional(),
  LEGACY_API_URL: z.string().url().optional(),
  INGEST_IDEMPOTENCY_TTL_HOURS: z.coerce.number().positive().max(24 * 30).default(24),
  SNS_ALLOWED_HOST_PATTERN: z.string().default('^sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?$'),
  SNS_BASE_URL_OVERRIDE: z.string().url().optional(),
  INGEST_RATE_LIMIT_PER_SOURCE: z.coerce.number().int().positive().default(500),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof envSchema>;

/** Resolved configuration: absolute paths and public URLs filled in from ports. */
export interface Config {
  dataDir: string;
  databaseUrl?: string;
  temporal: {
    address?: string;
    namespace: string;
    taskQueue: string;
    port: number;
    uiPort: number;
    uiUrl: string;
    cliPath?: string;
  };
  ports: { app: number; ingest: number; legacy: number };
  host: string;
  urls: { app: string; ingest: string; legacy: string };
  ingest: { idempotencyTtlHours: number; eventsPerSecondPerSource: number; snsHostPattern: RegExp; snsBaseUrlOverride?: string };
  logLevel: Env['LOG_LEVEL'];
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Parses the environment; throws a readable error naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    dataDir: path.resolve(e.KLAXON_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      port: e.TEMPORAL_PORT,
      uiPort: e.TEMPORAL_UI_PORT,
      uiUrl: trimSlash(e.TEMPORAL_UI_URL ?? `http://localhost:${e.TEMPORAL_UI_PORT}`),
      cliPath: e.TEMPORAL_CLI_PATH,
    },
    ports: { app: e.APP_PORT, ingest: e.INGEST_PORT, legacy: e.LEGACY_PORT },
    host: e.HOST,
    urls: {
      app: trimSlash(e.APP_URL ?? `http://localhost:${e.APP_PORT}`),
      ingest: trimSlash(e.INGEST_URL ?? `http://localhost:${e.INGEST_PORT}`),
      legacy: trimSlash(e.LEGACY_API_URL ?? `http://localhost:${e.LEGACY_PORT}`),
    },
    ingest: {
      idempotencyTtlHours: e.INGEST_IDEMPOTENCY_TTL_HOURS,
      eventsPerSecondPerSource: e.INGEST_RATE_LIMIT_PER_SOURCE,
      snsHostPattern: new RegExp(e.SNS_ALLOWED_HOST_PATTERN),
      snsBaseUrlOverride: e.SNS_BASE_URL_OVERRIDE,
    },
    logLevel: e.LOG_LEVEL,
  };
}
