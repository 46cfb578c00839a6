import { parseStormGuardEnv, type StormSetting } from './domain/grouping/storm';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { contentOrFile, fail, trimSlash } from './config-env';
import { parseCidrs } from './domain/cidr';
import { DEFAULT_AUTO_CLOSE_HOURS } from './domain/incident-lifecycle';
import { DEFAULT_DRILL_ACK_WINDOW_SECONDS } from './domain/drills';
import { DEFAULT_RETENTION_AGES, type RetentionAges } from './domain/retention';
import { MONITOR_INTERVAL_FLOOR_SECONDS } from './domain/plans';
import { DEFAULT_WATCHDOG_INTERVAL_SECONDS, WATCHDOG_INTERVAL_FLOOR_SECONDS, WATCHDOG_INTERVAL_MAX_SECONDS, watchdogUrlProblem } from './domain/watchdog';
import { DEFAULT_SIGNUPS_PER_IP_PER_HOUR } from './services/throttles/limits';
import { CarrierRoutes } from './domain/paging/carrier-routes';
import { DEFAULT_FAILOVER_AFTER_SECONDS } from './domain/paging/failover';

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
  API_KEY_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  // Unset: the role decides (src/stack/boot.ts): `start` listens on loopback only, `api` everywhere.
  HOST: z.string().min(1).optional(),
  APP_URL: z.string().url().optional(),
  INGEST_URL: z.string().url().optional(),
  API_KEY_API_URL: z.string().url().optional(),
  INGEST_IDEMPOTENCY_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(24),
  SNS_ALLOWED_HOST_PATTERN: z.string().default('^sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?$'),
  SNS_BASE_URL_OVERRIDE: z.string().url().optional(),
  INGEST_RATE_LIMIT_PER_SOURCE: z.coerce.number().int().positive().default(500),
  // The storm guard of every source that does not set its own (docs/grouping.md, "Storm guard"): max/within/quiet, or off.
  STORM_GUARD: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      try {
        parseStormGuardEnv(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  // `klaxon api` runs the outbox relay unless `off`: then a `klaxon relay` process delivers, woken over NOTIFY (docs/architecture.md).
  OUTBOX_RELAY: z.enum(['on', 'off']).default('on'),
  // Whose X-Forwarded-For the listeners believe (the client address per-IP limits count), and on
  // the API-key surface (README, "The API-key surface") whose X-Forwarded-Proto: HTTPS only, unless from one of them.
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((list) => parseCidrs(list).ok, { message: 'must be a comma-separated list of IP addresses or CIDRs' }),
  ALLOW_INSECURE_HTTP: z.enum(['loopback', 'never']).optional(),
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  API_KEY_RATE_LIMIT_PER_KEY: z.coerce.number().int().positive().default(20),
  SIGNUP_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(DEFAULT_SIGNUPS_PER_IP_PER_HOUR),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  KLAXON_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .refine((v) => !isPlaceholderSecret(v), 'is a placeholder from an example file: set a random value of your own (for example `openssl rand -base64 32`)')
    .optional(),
  // No billing provider takes payment: without this, a workspace cannot raise its own plan (docs/security.md).
  PLAN_SELF_SERVE: z.enum(['true', 'false', '1', '0']).default('false'),
  PAGE_LINK_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 7)
    .default(24),
  // Fractions allowed (a test closes after seconds); a year at most.
  AUTO_CLOSE_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(DEFAULT_AUTO_CLOSE_HOURS),
  // How long a drill's acknowledgement counts (docs/drills.md); tests shorten it.
  DRILL_ACK_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(DEFAULT_DRILL_ACK_WINDOW_SECONDS),
  RETENTION_CALLBACK_DAYS: z.coerce.number().positive().max(3650).default(DEFAULT_RETENTION_AGES.callbackDays),
  RETENTION_DEV_INBOX_DAYS: z.coerce.number().positive().max(3650).default(DEFAULT_RETENTION_AGES.devInboxDays),
  // Paging providers and chat apps read their own variables (src/integrations/<name>/config.ts), from `notify.env`.
  // Outbound targets (monitors, outgoing webhooks, …): private addresses refused unless allowed (SSRF); metadata endpoints always refused.
  ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false', '1', '0']).default('false'),
  // HTTP monitors: MONITOR_ALLOW_PRIVATE is the older name of ALLOW_PRIVATE_TARGETS; the interval floor is lowered only by tests.
  MONITOR_ALLOW_PRIVATE: z.enum(['true', 'false', '1', '0']).default('false'),
  // Single sign-on (docs/sso.md): an extra CA (PEM file) trusted for identity providers' https, for an IdP behind a private CA.
  SSO_CA_FILE: z.string().min(1).optional(),
  // Single sign-on's domain proof (docs/sso.md): DNS servers (`host:port`, comma-separated) for the TXT lookups; unset, the system's.
  DNS_RESOLVERS: z
    .string()
    .max(1024)
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((list) => list.length <= 8 && list.every(isResolverAddress), { message: 'must be a comma-separated list of host:port (an IP address and a port)' }),
  MONITOR_MIN_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(MONITOR_INTERVAL_FLOOR_SECONDS).default(MONITOR_INTERVAL_FLOOR_SECONDS),
  // The watchdog (docs/reliability.md): an outside heartbeat monitor pinged only while the end-to-end canary passes.
  WATCHDOG_URL: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      const problem = v === undefined ? null : watchdogUrlProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  WATCHDOG_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(WATCHDOG_INTERVAL_MAX_SECONDS).default(DEFAULT_WATCHDOG_INTERVAL_SECONDS),
  // Tests only: lowers the interval's floor (10 s), as MONITOR_MIN_INTERVAL_SECONDS does for monitors.
  WATCHDOG_MIN_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(WATCHDOG_INTERVAL_FLOOR_SECONDS).default(WATCHDOG_INTERVAL_FLOOR_SECONDS),
  // Phone pages' carriers (docs/reliability.md, "Carriers"): E.164 prefix → ordered carriers, as JSON; unset, every configured carrier, Twilio first.
  CARRIER_ROUTES: z
    .string()
    .max(64 * 1024)
    .optional(),
  // How long an SMS waits for its carrier's delivery report before the next carrier is tried (a call: a minute more, to ring).
  FAILOVER_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(DEFAULT_FAILOVER_AFTER_SECONDS),
  // Failing over on a failed or missing delivery report (the workflow waits for it): off until its replay hazard is fixed (docs/reliability.md, "Carriers").
  FAILOVER_ON_REPORTS: z.enum(['true', 'false', '1', '0']).default('false'),
});

export type Env = z.infer<typeof envSchema>;

/** Resolved configuration: absolute paths and public URLs filled in from ports. */
export interface Config {
  /** What the environment should change, said once at startup (an old variable name in use). */
  warnings: string[];
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
  ports: { app: number; ingest: number; apiKey: number };
  /** HOST: the address the listeners bind; unset, the role decides (`start` 127.0.0.1, `api` 0.0.0.0). */
  host?: string;
  /** PLAN_SELF_SERVE: a Billing Owner may raise the plan from the dashboard (there is no billing provider). */
  planSelfServe: boolean;
  urls: { app: string; ingest: string; apiKey: string };
  /** TRUSTED_PROXIES: addresses/CIDRs whose `X-Forwarded-For` (and, on the API-key surface, `X-Forwarded-Proto`) are believed. */
  trustedProxies: string[];
  /** The throttles an operator may tune (the rest are constants: src/services/throttles/limits.ts). */
  throttles: ThrottleConfig;
  ingest: {
    idempotencyTtlHours: number;
    eventsPerSecondPerSource: number;
    snsHostPattern: RegExp;
    snsBaseUrlOverride?: string;
    /** STORM_GUARD: sources' default storm guard; null when `off`. */
    stormGuard: StormSetting | null;
  };
  /** OUTBOX_RELAY: whether `klaxon api` runs its own outbox relay (`klaxon start` always does). */
  outboxRelay: 'on' | 'off';
  /** The API-key surface's transport and limits (docs/architecture.md, "Inbound webhooks"). */
  apiKey: ApiKeyConfig;
  notify: NotifyConfig;
  logLevel: Env['LOG_LEVEL'];
  /** Signs email links and push actions; unset, `start` keeps a generated one in the data folder. */
  secret?: string;
  pageLinkTtlSeconds: number;
  /** A RESOLVED incident closes by itself after this long (docs/architecture.md, "Incidents"). */
  autoCloseHours: number;
  /** How long a paging drill's acknowledgement counts (DRILL_ACK_WINDOW_SECONDS, 600). */
  drillAckWindowSeconds: number;
  /** How long the hourly purge keeps rows that have no plan-bound window (docs/architecture.md, "Retention"). */
  retention: RetentionAges;
  /** HTTP monitors (issue 14). */
  monitors: MonitorsConfig;
  /** Every outbound target (monitors, outgoing webhooks, …): the shared SSRF guard's setting. */
  targets: TargetsConfig;
  /** Single sign-on (docs/sso.md). */
  sso: SsoConfig;
  /** The watchdog (docs/reliability.md): absent unless WATCHDOG_URL is set. */
  watchdog?: WatchdogConfig;
  /** Phone pages' carriers: their order per prefix, and when a page goes to the next (docs/reliability.md, "Carriers"). */
  carriers: CarriersConfig;
}

export interface CarriersConfig {
  routes: CarrierRoutes;
  failoverAfterSeconds: number;
  /** The workflow waits for each carrier's report and fails over on a failure or silence; off: only a refusal fails over. */
  onReports: boolean;
}

/** WATCHDOG_URL and WATCHDOG_INTERVAL_SECONDS: where the heartbeat goes, and how often the canary runs. */
export interface WatchdogConfig {
  /** The outside monitor's ping URL (a capability: never logged). */
  url: string;
  intervalSeconds: number;
}

/** Single sign-on: how Klaxon reaches identity providers (always through the SSRF guard, `targets`). */
export interface SsoConfig {
  /** SSO_CA_FILE's certificates (PEM), trusted for IdPs' https besides the system's. */
  ca?: string;
  /** DNS_RESOLVERS: the DNS servers that answer domain-proof TXT lookups (`host:port`); empty: the system's. */
  dnsResolvers: string[];
}

/** `1.2.3.4:53`, `[::1]:5353`, or an address alone (port 53): what `dns.Resolver#setServers` takes. */
function isResolverAddress(entry: string): boolean {
  const bracketed = /^\[([^\]]{1,45})\]:(\d{1,5})$/.exec(entry);
  const v4 = /^([\d.]{7,15}):(\d{1,5})$/.exec(entry);
  const [host, port] = bracketed ? [bracketed[1], bracketed[2]] : v4 ? [v4[1], v4[2]] : [entry, '53'];
  return isIP(host) !== 0 && Number(port) >= 1 && Number(port) <= 65535;
}

/** The shared SSRF guard (src/domain/targets, src/services/targets). */
export interface TargetsConfig {
  /** ALLOW_PRIVATE_TARGETS (or MONITOR_ALLOW_PRIVATE): private addresses may be reached; cloud metadata never. */
  allowPrivate: boolean;
}

/** HTTP monitors: whether private addresses may be checked, and the interval floor. */
export interface MonitorsConfig {
  /** ALLOW_PRIVATE_TARGETS or MONITOR_ALLOW_PRIVATE: loopback, private, … targets allowed (tests, trusted networks). */
  allowPrivate: boolean;
  /** MONITOR_MIN_INTERVAL_SECONDS: 30 by default; lower only for tests. */
  minIntervalSeconds: number;
}

/** SIGNUP_RATE_LIMIT_PER_IP: sign-ups one client address may make in an hour. */
export interface ThrottleConfig {
  signupsPerIpPerHour: number;
}

export interface ApiKeyConfig {
  /** Plain HTTP allowed from loopback, or never; unset: the role decides (`start` loopback, `api` never). */
  allowInsecureHttp?: 'loopback' | 'never';
  /** Serve HTTPS directly with this certificate and key (PEM files). */
  tls?: { certFile: string; keyFile: string };
  /** Requests per second per API key (a 10 s burst). */
  requestsPerSecondPerKey: number;
}

/**
 * What integrations are configured from: the environment, which each parses with the schema in
 * its folder (ProviderModule `env` and `settings`, src/integrations/settings.ts), and the few
 * core values some of them build on.
 */
export interface NotifyConfig {
  /**
   * The environment as read at startup (renamed variables under their new names), for
   * integrations that parse their own variables (src/integrations/settings.ts `integrationEnv`).
   */
  env: Readonly<Record<string, string | undefined>>;
  /** KLAXON_DATA_DIR, absolute: where an integration keeps what it generates (Web Push's VAPID keys). */
  dataDir: string;
  /** The app's public URL (APP_URL), no trailing slash: what a push opens. */
  appUrl: string;
  /** ALLOW_PRIVATE_TARGETS (or MONITOR_ALLOW_PRIVATE): push endpoints on private addresses allowed (metadata endpoints never). */
  allowPrivateTargets: boolean;
  /** FAILOVER_ON_REPORTS: a carrier's report wakes the page's workflow only when it may fail the page over (docs/reliability.md, "Carriers"). */
  failoverOnReports?: boolean;
}

function tlsFiles(e: Env): ApiKeyConfig['tls'] {
  if (!e.TLS_CERT_FILE && !e.TLS_KEY_FILE) return undefined;
  if (!e.TLS_CERT_FILE || !e.TLS_KEY_FILE) throw new Error('invalid configuration: TLS_CERT_FILE and TLS_KEY_FILE go together');
  return { certFile: e.TLS_CERT_FILE, keyFile: e.TLS_KEY_FILE };
}

/**
 * KLAXON_SECRET values shipped in example files (an older docker-compose.yml carried the first):
 * anyone who read the file could forge page links and open sealed webhook secrets.
 */
const PLACEHOLDER_SECRETS = ['compose-development-secret-change-me-0123456789'];
export const isPlaceholderSecret = (secret: string): boolean => PLACEHOLDER_SECRETS.includes(secret) || /change-?me/i.test(secret);

/**
 * Variables that were renamed, old name first: the old one is still read when the new one is
 * unset, and each use earns a startup warning (`Config.warnings`) naming the new one.
 */
export const RENAMED_VARIABLES: ReadonlyArray<readonly [old: string, current: string]> = [
  ['LEGACY_PORT', 'API_KEY_PORT'],
  ['LEGACY_API_URL', 'API_KEY_API_URL'],
  ['LEGACY_RATE_LIMIT_PER_KEY', 'API_KEY_RATE_LIMIT_PER_KEY'],
];

/** The environment with renamed variables read under their new names, and what to warn about. */
function withCurrentNames(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; warnings: string[] } {
  const current = { ...env };
  const warnings: string[] = [];
  for (const [old, name] of RENAMED_VARIABLES) {
    if (env[old] === undefined) continue;
    if (env[name] === undefined) {
      current[name] = env[old];
      warnings.push(`${old} is an old name: set ${name} instead (${old} is still read for now)`);
    } else {
      warnings.push(`${old} is an old name and is ignored: ${name} is set`);
    }
  }
  return { env: current, warnings };
}

/** The environment with every renamed variable under its new name only: what child processes are given, so each does not warn again. */
export function envUnderCurrentNames(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const current = withCurrentNames(env).env;
  for (const [old] of RENAMED_VARIABLES) delete current[old];
  return current;
}

/** Parses the environment; throws a readable error naming each bad variable. */
export function loadConfig(rawEnv: NodeJS.ProcessEnv = process.env): Config {
  const { env, warnings } = withCurrentNames(rawEnv);
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    warnings,
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
    ports: { app: e.APP_PORT, ingest: e.INGEST_PORT, apiKey: e.API_KEY_PORT },
    host: e.HOST,
    planSelfServe: e.PLAN_SELF_SERVE === 'true' || e.PLAN_SELF_SERVE === '1',
    trustedProxies: e.TRUSTED_PROXIES,
    throttles: { signupsPerIpPerHour: e.SIGNUP_RATE_LIMIT_PER_IP },
    urls: {
      app: trimSlash(e.APP_URL ?? `http://localhost:${e.APP_PORT}`),
      ingest: trimSlash(e.INGEST_URL ?? `http://localhost:${e.INGEST_PORT}`),
      apiKey: trimSlash(e.API_KEY_API_URL ?? `http://localhost:${e.API_KEY_PORT}`),
    },
    ingest: {
      idempotencyTtlHours: e.INGEST_IDEMPOTENCY_TTL_HOURS,
      eventsPerSecondPerSource: e.INGEST_RATE_LIMIT_PER_SOURCE,
      snsHostPattern: new RegExp(e.SNS_ALLOWED_HOST_PATTERN),
      snsBaseUrlOverride: e.SNS_BASE_URL_OVERRIDE,
      stormGuard: parseStormGuardEnv(e.STORM_GUARD),
    },
    outboxRelay: e.OUTBOX_RELAY,
    apiKey: {
      allowInsecureHttp: e.ALLOW_INSECURE_HTTP,
      tls: tlsFiles(e),
      requestsPerSecondPerKey: e.API_KEY_RATE_LIMIT_PER_KEY,
    },
    notify: notifyConfig(e, env),
    logLevel: e.LOG_LEVEL,
    secret: e.KLAXON_SECRET,
    pageLinkTtlSeconds: e.PAGE_LINK_TTL_HOURS * 3600,
    autoCloseHours: e.AUTO_CLOSE_HOURS,
    drillAckWindowSeconds: e.DRILL_ACK_WINDOW_SECONDS,
    retention: retentionAges(e),
    monitors: { allowPrivate: allowPrivateTargets(e), minIntervalSeconds: e.MONITOR_MIN_INTERVAL_SECONDS },
    targets: { allowPrivate: allowPrivateTargets(e) },
    watchdog: watchdogConfig(e),
    carriers: { routes: carrierRoutes(e.CARRIER_ROUTES), failoverAfterSeconds: e.FAILOVER_AFTER_SECONDS, onReports: isTrue(e.FAILOVER_ON_REPORTS) },
    sso: { ca: e.SSO_CA_FILE === undefined ? undefined : contentOrFile('SSO_CA_FILE', e.SSO_CA_FILE, () => false), dnsResolvers: e.DNS_RESOLVERS },
  };
}

/** CARRIER_ROUTES, parsed and checked: a bad value names the prefix it is about (never the whole value). */
function carrierRoutes(raw: string | undefined): CarrierRoutes {
  if (raw === undefined || raw.trim() === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    fail('CARRIER_ROUTES', 'must be JSON: an object of E.164 prefixes to carrier lists, e.g. {"+49": ["vonage", "twilio"]}');
  }
  const parsed = CarrierRoutes.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail('CARRIER_ROUTES', `${issue.path.length ? `${String(issue.path[0])}: ` : ''}${issue.message}`);
  }
  return parsed.data;
}

/** The watchdog, when WATCHDOG_URL is set; the interval must be within its bounds whether or not it is. */
function watchdogConfig(e: Env): WatchdogConfig | undefined {
  if (e.WATCHDOG_INTERVAL_SECONDS < e.WATCHDOG_MIN_INTERVAL_SECONDS)
    fail('WATCHDOG_INTERVAL_SECONDS', `must be at least ${e.WATCHDOG_MIN_INTERVAL_SECONDS} (seconds)`);
  return e.WATCHDOG_URL === undefined ? undefined : { url: e.WATCHDOG_URL, intervalSeconds: e.WATCHDOG_INTERVAL_SECONDS };
}

const isTrue = (v: 'true' | 'false' | '1' | '0') => v === 'true' || v === '1';

/** ALLOW_PRIVATE_TARGETS, with MONITOR_ALLOW_PRIVATE kept as its alias: either lifts the private-address refusal. */
const allowPrivateTargets = (e: Env): boolean => isTrue(e.ALLOW_PRIVATE_TARGETS) || isTrue(e.MONITOR_ALLOW_PRIVATE);

/**
 * Retention ages. Used page links are remembered as provider callbacks, so those are kept at
 * least as long as a link works: a purged one could otherwise act twice.
 */
function retentionAges(e: Env): RetentionAges {
  if (e.RETENTION_CALLBACK_DAYS * 24 < e.PAGE_LINK_TTL_HOURS)
    fail('RETENTION_CALLBACK_DAYS', `must cover PAGE_LINK_TTL_HOURS (${e.PAGE_LINK_TTL_HOURS} h): a used page link must stay used while it works`);
  return { ...DEFAULT_RETENTION_AGES, callbackDays: e.RETENTION_CALLBACK_DAYS, devInboxDays: e.RETENTION_DEV_INBOX_DAYS };
}

/** The `notify` section: the environment integrations read their own variables from, and the core values they build on. */
function notifyConfig(e: Env, env: NodeJS.ProcessEnv): NotifyConfig {
  return {
    env: Object.freeze({ ...env }),
    dataDir: path.resolve(e.KLAXON_DATA_DIR),
    appUrl: trimSlash(e.APP_URL ?? `http://localhost:${e.APP_PORT}`),
    allowPrivateTargets: allowPrivateTargets(e),
    failoverOnReports: isTrue(e.FAILOVER_ON_REPORTS),
  };
}
