import type { MikroORM } from '@mikro-orm/postgresql';
import { channelProviders, configuredCarriers } from '../../integrations/wiring';
import { carriersHealth } from '../paging/carrier-attempts';
import type { NotifyConfig } from '../../config';
import { knexOf } from '../../db/knex';
import { CHANNEL_IDS } from '../../domain/channels';
import { canaryStatusProblem } from '../../domain/watchdog';
import type { ServingHealth } from '../../health/serving';
import { outboxHealth, type OutboxHealth } from '../relay';
import { lastCanarySuccess } from '../watchdog/canary-state';
import { alertToFirstPageLatency, type LATENCY_WINDOWS, type LatencyQuantiles } from './latency-metrics';

/** An outbox message waiting longer than this makes the status `degraded`: the relay is behind. */
export const OUTBOX_LAG_DEGRADED_SECONDS = 60;
/** A channel whose newest page failed within this long (none went out since) makes the status `degraded`. */
export const CHANNEL_ERROR_RECENT_MS = 3_600_000;

export type OverallStatus = 'ok' | 'degraded' | 'down';

/** One channel: where its pages go, and the newest failed page of the workspace on it. */
export interface ChannelStatus {
  channel: string;
  provider: string;
  last_error: { error: string | null; at: string } | null;
  last_success_at: string | null;
}

/** What /api/status answers. */
export interface SystemStatus {
  status: OverallStatus;
  /** Why it is not `ok`, one line each. */
  problems: string[];
  checked_at: string;
  postgres: { reachable: boolean; latency_ms: number | null };
  temporal: { reachable: boolean };
  workers: { polling: boolean };
  outbox: OutboxHealth | null;
  channels: ChannelStatus[];
  /** The watchdog's end-to-end canary (docs/reliability.md): its last pass, null before the first (or without WATCHDOG_URL). */
  canary: { last_success_at: string | null };
  /** Alert to first page (docs/reliability.md, "Published latencies") over the last hour and day, in seconds; null without pages. */
  latency: Record<keyof typeof LATENCY_WINDOWS, LatencyQuantiles>;
  /** Each configured phone carrier (docs/reliability.md, "Carriers"): healthy, or skipped by the circuit breaker until when. */
  carriers: CarrierStatus[];
}

export interface CarrierStatus {
  carrier: string;
  healthy: boolean;
  skipped_until: string | null;
}

/**
 * The platform's health as a workspace member sees it: the serving-health checks (Postgres, Temporal,
 * a worker polling), Postgres' round trip, the ingestion outbox's backlog, per channel its
 * provider and the workspace's newest failed page, the watchdog canary's last pass and the
 * installation's alert-to-first-page p50/p99 (every workspace's pages together). `down`: Postgres or Temporal unreachable (no
 * incident can move); `degraded`: no worker polling, parked or lagging outbox messages, a
 * channel whose newest page failed in the last hour, or (with WATCHDOG_URL) a canary that has not
 * passed for two intervals.
 */
export async function systemStatus(
  deps: {
    orm: MikroORM;
    notify: NotifyConfig;
    servingHealth: () => Promise<ServingHealth>;
    /** WATCHDOG_URL set: the canary's interval and when this process's watchdog started (absent: no canary line). */
    watchdog?: { intervalSeconds: number; startedAt: Date };
  },
  organizationId: string,
  now = new Date(),
): Promise<SystemStatus> {
  const unknown = { p50: null, p99: null };
  const [serving, latency, outbox, channels, canary, carriers, paging] = await Promise.all([
    deps.servingHealth(),
    postgresLatency(deps.orm),
    outboxHealth(deps.orm).catch(() => null),
    channelStatuses(deps.orm, deps.notify, organizationId).catch(() => null),
    // Undefined: not readable (Postgres is away, said above), so nothing is said of the canary.
    lastCanarySuccess(knexOf(deps.orm)).catch(() => undefined),
    carriersHealth(knexOf(deps.orm), configuredCarriers(deps.notify), now).catch(() => null),
    alertToFirstPageLatency(deps.orm, now).catch(() => ({ hour: unknown, day: unknown })),
  ]);
  const problems: string[] = [];
  const down: string[] = [];
  if (!serving.checks.postgres || latency === null) down.push('Postgres is not reachable');
  if (!serving.checks.temporal) down.push('Temporal is not reachable');
  if (!serving.checks.worker && serving.checks.temporal) problems.push('no worker is polling the task queue: incidents do not move');
  if (outbox && outbox.parked > 0) problems.push(`${outbox.parked} ingestion outbox message(s) parked after failed deliveries (klaxon outbox)`);
  if (outbox?.oldest_pending_age_seconds != null && outbox.oldest_pending_age_seconds > OUTBOX_LAG_DEGRADED_SECONDS) {
    problems.push(`the oldest pending ingestion outbox message waits for ${outbox.oldest_pending_age_seconds} s`);
  }
  for (const c of channels ?? []) {
    if (!c.last_error) continue;
    const at = Date.parse(c.last_error.at);
    const since = c.last_success_at ? Date.parse(c.last_success_at) : 0;
    if (now.getTime() - at < CHANNEL_ERROR_RECENT_MS && at > since) problems.push(`the newest ${c.channel} page failed (${c.provider})`);
  }
  for (const c of carriers ?? []) {
    if (!c.healthy) problems.push(`${c.carrier} is failing most of its recent pages: skipped until ${c.skippedUntil!.toISOString()}`);
  }
  const canaryProblem = deps.watchdog && canary !== undefined ? canaryStatusProblem(canary, deps.watchdog, now) : null;
  if (canaryProblem) problems.push(canaryProblem);
  return {
    status: down.length > 0 ? 'down' : problems.length > 0 ? 'degraded' : 'ok',
    problems: [...down, ...problems],
    checked_at: now.toISOString(),
    postgres: { reachable: serving.checks.postgres && latency !== null, latency_ms: latency },
    temporal: { reachable: serving.checks.temporal },
    workers: { polling: serving.checks.worker },
    outbox,
    channels:
      channels ?? CHANNEL_IDS.map((channel) => ({ channel, provider: channelProviders(deps.notify)[channel], last_error: null, last_success_at: null })),
    canary: { last_success_at: canary ? canary.at.toISOString() : null },
    carriers: (carriers ?? configuredCarriers(deps.notify).map((carrier) => ({ carrier, healthy: true, skippedUntil: null }))).map((c) => ({
      carrier: c.carrier,
      healthy: c.healthy,
      skipped_until: c.skippedUntil ? c.skippedUntil.toISOString() : null,
    })),
    latency: paging,
  };
}

/** Milliseconds of a `select 1` round trip; null when it failed or took over 2 s. */
async function postgresLatency(orm: MikroORM): Promise<number | null> {
  const started = process.hrtime.bigint();
  try {
    await Promise.race([
      orm.em.getConnection().execute('select 1'),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 2000).unref()),
    ]);
    return Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
  } catch {
    return null;
  }
}

/** Per channel: its provider (or the dev inbox), the workspace's newest failed page and newest page that went out. */
async function channelStatuses(orm: MikroORM, notify: NotifyConfig, organizationId: string): Promise<ChannelStatus[]> {
  const providers = channelProviders(notify);
  const { rows } = (await knexOf(orm).raw(
    `select c.channel, f.error, f.updated_at as failed_at, s.updated_at as sent_at
       from unnest(?::text[]) as c(channel)
       left join lateral (select error, updated_at from notifications
                          where organization_id = ? and channel = c.channel and status = 'failed'
                          order by updated_at desc limit 1) f on true
       left join lateral (select updated_at from notifications
                          where organization_id = ? and channel = c.channel and status in ('sent', 'delivered')
                          order by updated_at desc limit 1) s on true`,
    [`{${CHANNEL_IDS.join(',')}}`, organizationId, organizationId],
  )) as { rows: Array<{ channel: (typeof CHANNEL_IDS)[number]; error: string | null; failed_at: Date | null; sent_at: Date | null }> };
  return rows.map((r) => ({
    channel: r.channel,
    provider: providers[r.channel],
    last_error: r.failed_at ? { error: r.error, at: new Date(r.failed_at).toISOString() } : null,
    last_success_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
  }));
}
