/**
 * The watchdog (docs/reliability.md): an end-to-end canary through the ingest listener, the
 * incident workflow and the paging activity, and a heartbeat sent to an outside monitor only while
 * the canary passes. Pure: the rules the runner (src/services/watchdog) applies.
 */

/** WATCHDOG_INTERVAL_SECONDS when unset: one canary and at most one ping a minute. */
export const DEFAULT_WATCHDOG_INTERVAL_SECONDS = 60;
/** The shortest interval an operator may set; tests lower it (WATCHDOG_MIN_INTERVAL_SECONDS). */
export const WATCHDOG_INTERVAL_FLOOR_SECONDS = 10;
/** The longest interval: an outside monitor waiting over an hour hears of an outage too late. */
export const WATCHDOG_INTERVAL_MAX_SECONDS = 3600;
/** A canary passes when its page went out within this long of its alert's post. */
export const CANARY_DEADLINE_MS = 30_000;
/** A ping is sent only while the last success is younger than this many intervals. */
export const PING_WINDOW_INTERVALS = 2;

/** The deadline one run is given: 30 s, or the interval when shorter (the next run starts then). */
export const canaryDeadlineMs = (intervalSeconds: number): number => Math.min(CANARY_DEADLINE_MS, intervalSeconds * 1000);

/**
 * Whether the outside monitor is pinged now, given the last canary success's age (Postgres'
 * clock; null before the first): only while it is younger than two intervals. So with the worker, Postgres or Temporal down (no success recorded, or none
 * readable), pings stop within two intervals, and the outside monitor notices.
 */
export function shouldPing(lastSuccessAgeMs: number | null, intervalSeconds: number): boolean {
  if (lastSuccessAgeMs === null || !Number.isFinite(lastSuccessAgeMs)) return false;
  return lastSuccessAgeMs < PING_WINDOW_INTERVALS * intervalSeconds * 1000;
}

/**
 * The line /api/status adds when the canary has stopped passing (docs/reliability.md, "Who sees
 * it"): its last success older than two intervals, or none since the watchdog started. Null while
 * it passes, and for the first two intervals after this process's watchdog started (its first
 * runs have not had their chance yet, after a restart as after a first install). Ages are
 * Postgres' clock for the success (as the ping's), this process's for its start.
 */
export function canaryStatusProblem(
  lastSuccess: { at: Date; ageMs: number } | null,
  watchdog: { intervalSeconds: number; startedAt: Date },
  now: Date,
): string | null {
  const windowMs = PING_WINDOW_INTERVALS * watchdog.intervalSeconds * 1000;
  if (now.getTime() - watchdog.startedAt.getTime() <= windowMs) return null;
  // Exactly when the heartbeat stops: the outside monitor and this line tell the same story.
  if (lastSuccess && shouldPing(lastSuccess.ageMs, watchdog.intervalSeconds)) return null;
  const since = lastSuccess ? lastSuccess.at.toISOString() : `the watchdog started (${watchdog.startedAt.toISOString()})`;
  return `the watchdog canary has not passed since ${since}: alert → workflow → page is broken somewhere`;
}

/** The dedup key of a run's alert: the paging activity finds the run it answers by it. */
export const CANARY_DEDUP_PREFIX = 'klaxon-canary:';
export const canaryDedupKey = (runId: string): string => `${CANARY_DEDUP_PREFIX}${runId}`;

/** The synthetic alert a run posts to its own ingest listener: a Form A event. */
export function canaryAlert(runId: string): { title: string; message: string; severity: 'critical'; dedup_key: string; source: string } {
  return {
    title: 'Klaxon watchdog canary',
    message: 'A synthetic alert: it checks that alerts travel to a page. It pages nobody.',
    severity: 'critical',
    dedup_key: canaryDedupKey(runId),
    source: 'klaxon-watchdog',
  };
}

/**
 * Whether a WATCHDOG_URL may be used: https, or plain http to this machine only (a local relay
 * or a test's stand-in): a heartbeat URL is a capability, never sent in the clear over a network.
 */
export function watchdogUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a URL';
  }
  if (url.username || url.password) return 'must not carry credentials in the URL';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'must be an https:// URL (plain http:// only to localhost)';
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
