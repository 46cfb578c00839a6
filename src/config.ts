import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseCidrs } from './domain/cidr';
import { DEFAULT_AUTO_CLOSE_HOURS } from './domain/incident-lifecycle';
import { DEFAULT_RETENTION_AGES, type RetentionAges } from './domain/retention';
import { MONITOR_INTERVAL_FLOOR_SECONDS } from './domain/plans';
import { DEFAULT_SIGNUPS_PER_IP_PER_HOUR } from './services/throttles/limits';

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
  // Unset: the role decides (src/stack/boot.ts): `start` listens on loopback only, `api` everywhere.
  HOST: z.string().min(1).optional(),
  APP_URL: z.string().url().optional(),
  INGEST_URL: z.string().url().optional(),
  LEGACY_API_URL: z.string().url().optional(),
  INGEST_IDEMPOTENCY_TTL_HOURS: z.coerce.number().positive().max(24 * 30).default(24),
  SNS_ALLOWED_HOST_PATTERN: z.string().default('^sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?$'),
  SNS_BASE_URL_OVERRIDE: z.string().url().optional(),
  INGEST_RATE_LIMIT_PER_SOURCE: z.coerce.number().int().positive().default(500),
  // Whose X-Forwarded-For the listeners believe (the client address per-IP limits count), and on
  // the API-key surface (README, "The API-key surface") whose X-Forwarded-Proto: HTTPS only, unless from one of them.
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .refine((list) => parseCidrs(list).ok, { message: 'must be a comma-separated list of IP addresses or CIDRs' }),
  ALLOW_INSECURE_HTTP: z.enum(['loopback', 'never']).optional(),
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  LEGACY_RATE_LIMIT_PER_KEY: z.coerce.number().int().positive().default(20),
  SIGNUP_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(DEFAULT_SIGNUPS_PER_IP_PER_HOUR),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  KLAXON_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .refine((v) => !isPlaceholderSecret(v), 'is a placeholder from an example file: set a random value of your own (for example `openssl rand -base64 32`)')
    .optional(),
  // No billing provider takes payment: without this, a workspace cannot raise its own plan (docs/security.md).
  PLAN_SELF_SERVE: z.enum(['true', 'false', '1', '0']).default('false'),
  PAGE_LINK_TTL_HOURS: z.coerce.number().positive().max(24 * 7).default(24),
  // Fractions allowed (a test closes after seconds); a year at most.
  AUTO_CLOSE_HOURS: z.coerce.number().positive().max(24 * 365).default(DEFAULT_AUTO_CLOSE_HOURS),
  RETENTION_CALLBACK_DAYS: z.coerce.number().positive().max(3650).default(DEFAULT_RETENTION_AGES.callbackDays),
  RETENTION_DEV_INBOX_DAYS: z.coerce.number().positive().max(3650).default(DEFAULT_RETENTION_AGES.devInboxDays),
  // Paging providers (docs/architecture.md, "Paging"): a channel without its credentials delivers to the dev inbox.
  TWILIO_ACCOUNT_SID: z.string().regex(/^AC\w+$/, 'must start with AC').optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM_NUMBER: z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number like +15551234567').optional(),
  TWILIO_API_BASE_URL: z.string().url().optional(),
  SENDGRID_API_KEY: z.string().min(1).optional(),
  SENDGRID_API_BASE_URL: z.string().url().optional(),
  EMAIL_FROM: z.string().min(3).default('Klaxon <klaxon@localhost>'),
  SMTP_URL: z.string().regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL').optional(),
  APNS_KEY: z.string().min(1).optional(),
  APNS_KEY_ID: z.string().min(1).optional(),
  APNS_TEAM_ID: z.string().min(1).optional(),
  APNS_TOPIC: z.string().min(1).optional(),
  APNS_HOST: z.string().min(1).optional(),
  APNS_PORT: z.coerce.number().int().min(1).max(65535).default(443),
  APNS_PRODUCTION: z.enum(['true', 'false', '1', '0']).default('false'),
  APNS_CA_FILE: z.string().min(1).optional(),
  FCM_PROJECT_ID: z.string().min(1).optional(),
  FCM_SERVICE_ACCOUNT: z.string().min(1).optional(),
  FCM_BASE_URL: z.string().url().default('https://fcm.googleapis.com'),
  // HTTP monitors: private targets refused unless allowed (SSRF); the interval floor is lowered only by tests.
  MONITOR_ALLOW_PRIVATE: z.enum(['true', 'false', '1', '0']).default('false'),
  MONITOR_MIN_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(MONITOR_INTERVAL_FLOOR_SECONDS).default(MONITOR_INTERVAL_FLOOR_SECONDS),
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
  /** HOST: the address the listeners bind; unset, the role decides (`start` 127.0.0.1, `api` 0.0.0.0). */
  host?: string;
  /** PLAN_SELF_SERVE: a Billing Owner may raise the plan from the dashboard (there is no billing provider). */
  planSelfServe: boolean;
  urls: { app: string; ingest: string; legacy: string };
  /** TRUSTED_PROXIES: addresses/CIDRs whose `X-Forwarded-For` (and, on the API-key surface, `X-Forwarded-Proto`) are believed. */
  trustedProxies: string[];
  /** The throttles an operator may tune (the rest are constants: src/services/throttles/limits.ts). */
  throttles: ThrottleConfig;
  ingest: { idempotencyTtlHours: number; eventsPerSecondPerSource: number; snsHostPattern: RegExp; snsBaseUrlOverride?: string };
  /** The API-key surface's transport and limits (docs/architecture.md, "Inbound webhooks"). */
  legacy: LegacyConfig;
  notify: NotifyConfig;
  logLevel: Env['LOG_LEVEL'];
  /** Signs email links and push actions; unset, `start` keeps a generated one in the data folder. */
  secret?: string;
  pageLinkTtlSeconds: number;
  /** A RESOLVED incident closes by itself after this long (docs/architecture.md, "Incidents"). */
  autoCloseHours: number;
  /** How long the hourly purge keeps rows that have no plan-bound window (docs/architecture.md, "Retention"). */
  retention: RetentionAges;
  /** HTTP monitors (issue 14). */
  monitors: MonitorsConfig;
}

/** HTTP monitors: whether private addresses may be checked, and the interval floor. */
export interface MonitorsConfig {
  /** MONITOR_ALLOW_PRIVATE: loopback, private, link-local, … targets allowed (tests, trusted networks). */
  allowPrivate: boolean;
  /** MONITOR_MIN_INTERVAL_SECONDS: 30 by default; lower only for tests. */
  minIntervalSeconds: number;
}

/** SIGNUP_RATE_LIMIT_PER_IP: sign-ups one client address may make in an hour. */
export interface ThrottleConfig {
  signupsPerIpPerHour: number;
}

export interface LegacyConfig {
  /** Plain HTTP allowed from loopback, or never; unset: the role decides (`start` loopback, `api` never). */
  allowInsecureHttp?: 'loopback' | 'never';
  /** Serve HTTPS directly with this certificate and key (PEM files). */
  tls?: { certFile: string; keyFile: string };
  /** Requests per second per API key (a 10 s burst). */
  requestsPerSecondPerKey: number;
}

/** The fields of a Google service-account key file that FCM needs. */
export interface FcmServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id?: string;
  token_uri?: string;
}

/** Paging providers; a missing group means that channel delivers to the dev inbox. */
export interface NotifyConfig {
  twilio?: { accountSid: string; authToken: string; fromNumber: string; apiBaseUrl?: string };
  email: { from: string; smtpUrl?: string; sendgrid?: { apiKey: string; apiBaseUrl?: string } };
  apns?: { key: string; keyId: string; teamId: string; topic: string; host?: string; port: number; production: boolean; ca?: string };
  fcm?: { projectId: string; serviceAccount: FcmServiceAccount; baseUrl: string };
}

function tlsFiles(e: Env): LegacyConfig['tls'] {
  if (!e.TLS_CERT_FILE && !e.TLS_KEY_FILE) return undefined;
  if (!e.TLS_CERT_FILE || !e.TLS_KEY_FILE) throw new Error('invalid configuration: TLS_CERT_FILE and TLS_KEY_FILE go together');
  return { certFile: e.TLS_CERT_FILE, keyFile: e.TLS_KEY_FILE };
}

// A loop, not /\/+$/: that regex restarts at every slash of a run (quadratic).
const trimSlash = (url: string) => {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
};

/**
 * KLAXON_SECRET values shipped in example files (an older docker-compose.yml carried the first):
 * anyone who read the file could forge page links and open sealed webhook secrets.
 */
const PLACEHOLDER_SECRETS = ['compose-development-secret-change-me-0123456789'];
export const isPlaceholderSecret = (secret: string): boolean => PLACEHOLDER_SECRETS.includes(secret) || /change-?me/i.test(secret);

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
    planSelfServe: e.PLAN_SELF_SERVE === 'true' || e.PLAN_SELF_SERVE === '1',
    trustedProxies: e.TRUSTED_PROXIES,
    throttles: { signupsPerIpPerHour: e.SIGNUP_RATE_LIMIT_PER_IP },
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
    legacy: {
      allowInsecureHttp: e.ALLOW_INSECURE_HTTP,
      tls: tlsFiles(e),
      requestsPerSecondPerKey: e.LEGACY_RATE_LIMIT_PER_KEY,
    },
    notify: notifyConfig(e),
    logLevel: e.LOG_LEVEL,
    secret: e.KLAXON_SECRET,
    pageLinkTtlSeconds: e.PAGE_LINK_TTL_HOURS * 3600,
    autoCloseHours: e.AUTO_CLOSE_HOURS,
    retention: retentionAges(e),
    monitors: { allowPrivate: e.MONITOR_ALLOW_PRIVATE === 'true' || e.MONITOR_ALLOW_PRIVATE === '1', minIntervalSeconds: e.MONITOR_MIN_INTERVAL_SECONDS },
  };
}

/**
 * Retention ages. Used page links are remembered as provider callbacks, so those are kept at
 * least as long as a link works: a purged one could otherwise act twice.
 */
function retentionAges(e: Env): RetentionAges {
  if (e.RETENTION_CALLBACK_DAYS * 24 < e.PAGE_LINK_TTL_HOURS) fail('RETENTION_CALLBACK_DAYS', `must cover PAGE_LINK_TTL_HOURS (${e.PAGE_LINK_TTL_HOURS} h): a used page link must stay used while it works`);
  return { ...DEFAULT_RETENTION_AGES, callbackDays: e.RETENTION_CALLBACK_DAYS, devInboxDays: e.RETENTION_DEV_INBOX_DAYS };
}

/** Throws the same readable error as the schema; never echoes a value (most of these are secrets). */
function fail(variable: string, problem: string): never {
  throw new Error(`invalid configuration: ${variable}: ${problem}`);
}

/**
 * A provider is configured when any of its variables is set; then all of its required ones must
 * be, so a typo fails at startup instead of silently paging into the dev inbox.
 */
function group<K extends keyof Env>(e: Env, required: K[]): { [P in K]-?: NonNullable<Env[P]> } | undefined {
  const set = required.filter((k) => e[k] !== undefined);
  if (set.length === 0) return undefined;
  const missing = required.filter((k) => e[k] === undefined);
  if (missing.length) fail(missing[0], `required when ${set[0]} is set`);
  return e as unknown as { [P in K]-?: NonNullable<Env[P]> };
}

/** PEM or JSON content given inline, or else the path of a file holding it. */
function contentOrFile(variable: string, value: string, looksInline: (v: string) => boolean): string {
  if (looksInline(value)) return value;
  try {
    return readFileSync(value, 'utf8');
  } catch {
    return fail(variable, 'is neither inline content nor a readable file');
  }
}

/** The service-account key, inline JSON or a file path. */
function fcmServiceAccount(value: string): FcmServiceAccount {
  const text = contentOrFile('FCM_SERVICE_ACCOUNT', value, (v) => v.trimStart().startsWith('{'));
  let json: Partial<FcmServiceAccount> | undefined;
  try {
    json = JSON.parse(text) as Partial<FcmServiceAccount>;
  } catch {
    // JSON.parse quotes the text it choked on: a private key must not reach the message.
  }
  if (typeof json?.client_email !== 'string' || typeof json.private_key !== 'string') fail('FCM_SERVICE_ACCOUNT', 'is not a service-account key (JSON with client_email and private_key)');
  return json as FcmServiceAccount;
}

/** The `notify` section: which providers are configured, and where their endpoints are. */
function notifyConfig(e: Env): NotifyConfig {
  const twilio = group(e, ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER']);
  const apns = group(e, ['APNS_KEY', 'APNS_KEY_ID', 'APNS_TEAM_ID', 'APNS_TOPIC']);
  const account = e.FCM_SERVICE_ACCOUNT === undefined ? undefined : fcmServiceAccount(e.FCM_SERVICE_ACCOUNT);
  const projectId = e.FCM_PROJECT_ID ?? account?.project_id;
  if (e.FCM_PROJECT_ID && !account) fail('FCM_SERVICE_ACCOUNT', 'required when FCM_PROJECT_ID is set');
  if (account && !projectId) fail('FCM_PROJECT_ID', 'required when the service account has no project_id');
  return {
    twilio: twilio && { accountSid: twilio.TWILIO_ACCOUNT_SID, authToken: twilio.TWILIO_AUTH_TOKEN, fromNumber: twilio.TWILIO_FROM_NUMBER, apiBaseUrl: e.TWILIO_API_BASE_URL && trimSlash(e.TWILIO_API_BASE_URL) },
    email: { from: e.EMAIL_FROM, smtpUrl: e.SMTP_URL, sendgrid: e.SENDGRID_API_KEY === undefined ? undefined : { apiKey: e.SENDGRID_API_KEY, apiBaseUrl: e.SENDGRID_API_BASE_URL && trimSlash(e.SENDGRID_API_BASE_URL) } },
    apns: apns && {
      key: contentOrFile('APNS_KEY', apns.APNS_KEY, (v) => v.includes('-----BEGIN')),
      keyId: apns.APNS_KEY_ID, teamId: apns.APNS_TEAM_ID, topic: apns.APNS_TOPIC, host: e.APNS_HOST, port: e.APNS_PORT,
      production: e.APNS_PRODUCTION === 'true' || e.APNS_PRODUCTION === '1',
      ca: e.APNS_CA_FILE === undefined ? undefined : contentOrFile('APNS_CA_FILE', e.APNS_CA_FILE, () => false),
    },
    fcm: account && projectId ? { projectId, serviceAccount: account, baseUrl: trimSlash(e.FCM_BASE_URL) } : undefined,
  };
}
