import { z } from 'zod';
import {
  flushLatencyMetrics,
  flushRequestMetrics,
  LATENCY_WINDOWS,
  processRequestMetrics,
  responseTimes,
  RESPONSE_WINDOWS,
  SURFACES,
  systemStatus,
  uptimeReport,
  UPTIME_WINDOW_NAMES,
} from '../../../src/services/status';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, type AdminDeps } from '../admin-kit';

const { 403: _csrfOnly, ...READ_ERRORS } = ADMIN_ERRORS;
const NoQuery = z.object({}).strict();

const StatusSchema = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  problems: z.array(z.string()),
  checked_at: z.iso.datetime(),
  postgres: z.object({ reachable: z.boolean(), latency_ms: z.number().nullable() }),
  temporal: z.object({ reachable: z.boolean() }),
  workers: z.object({ polling: z.boolean() }),
  outbox: z.object({ pending: z.number().int(), oldest_pending_age_seconds: z.number().int().nullable(), parked: z.number().int() }).nullable(),
  channels: z.array(
    z.object({
      channel: z.string(),
      provider: z.string(),
      last_error: z.object({ error: z.string().nullable(), at: z.iso.datetime() }).nullable(),
      last_success_at: z.iso.datetime().nullable(),
    }),
  ),
  canary: z.object({ last_success_at: z.iso.datetime().nullable() }),
  carriers: z.array(z.object({ carrier: z.string(), healthy: z.boolean(), skipped_until: z.iso.datetime().nullable() })),
  latency: z.object(
    Object.fromEntries(Object.keys(LATENCY_WINDOWS).map((w) => [w, z.object({ p50: z.number().nullable(), p99: z.number().nullable() })])) as Record<
      keyof typeof LATENCY_WINDOWS,
      z.ZodObject<{ p50: z.ZodNullable<z.ZodNumber>; p99: z.ZodNullable<z.ZodNumber> }>
    >,
  ),
});

const Summary = z.object({
  count: z.number().int(),
  p50_ms: z.number().nullable(),
  p95_ms: z.number().nullable(),
  p99_ms: z.number().nullable(),
  mean_ms: z.number().nullable(),
});
const PerWindow = z.object(Object.fromEntries(Object.keys(RESPONSE_WINDOWS).map((w) => [w, Summary])) as Record<keyof typeof RESPONSE_WINDOWS, typeof Summary>);
const ResponseTimeSchema = z.object({
  windows: z.array(z.string()),
  surfaces: z.object(Object.fromEntries(SURFACES.map((s) => [s, PerWindow])) as Record<(typeof SURFACES)[number], typeof PerWindow>),
});

const Availability = z.object(
  Object.fromEntries(UPTIME_WINDOW_NAMES.map((w) => [w, z.number().min(0).max(1).nullable()])) as Record<
    (typeof UPTIME_WINDOW_NAMES)[number],
    z.ZodNullable<z.ZodNumber>
  >,
);
/** The uptime bar: 30 blocks of 24 hours counted back from now, oldest first. */
const Daily = z.array(z.object({ from: z.iso.datetime(), to: z.iso.datetime(), availability: z.number().min(0).max(1).nullable() }));
const UptimeSchema = z.object({
  process_uptime_seconds: z.number().int(),
  system_uptime_seconds: z.number().int(),
  monitors: z.array(z.object({ id: z.uuid(), name: z.string(), status: z.string(), checks_30d: z.number().int(), availability: Availability, daily: Daily })),
  heartbeats: z.array(z.object({ id: z.uuid(), name: z.string(), paused: z.boolean(), availability: Availability, daily: Daily })),
});

/** Operational status for any member (nothing secret in it): /api/status, /api/response-time, /api/uptime. */
export function statusRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/status',
      summary:
        'Operational status: Postgres, Temporal, workers, ingestion outbox, channel providers, the watchdog canary, alert-to-first-page latency, phone carriers (any member)',
      operationId: 'getStatus',
      query: NoQuery,
      success: { status: 200, description: 'overall `ok` | `degraded` | `down`, why, and each part', schema: StatusSchema },
      errors: READ_ERRORS,
      handler: async (ctx) => {
        const actor = adminActorOf(ctx);
        // This process's latest latency observations first (others flush every ~10 s); a failed write keeps them.
        await flushLatencyMetrics(deps.orm).catch(() => undefined);
        const status = await systemStatus(
          { orm: deps.orm, notify: deps.notify, servingHealth: deps.servingHealth, watchdog: deps.watchdog },
          actor.organizationId,
        );
        return { data: status, message: status.status };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/response-time',
      summary: 'Response times of the app, ingestion and API-key surfaces over 5 min, 1 h, 24 h (any member)',
      operationId: 'getResponseTime',
      query: NoQuery,
      success: {
        status: 200,
        description: 'per surface and window: requests counted by every process and p50/p95/p99 (ms) estimated from shared buckets',
        schema: ResponseTimeSchema,
      },
      errors: READ_ERRORS,
      handler: async () => {
        // This process's latest counts first, so the answer is as fresh as can be; other processes flush every ~10 s.
        // A failed write keeps its counts for the next flush: the answer is then a few seconds staler.
        await flushRequestMetrics(deps.orm, processRequestMetrics).catch(() => undefined);
        return { data: { windows: Object.keys(RESPONSE_WINDOWS), surfaces: await responseTimes(deps.orm) } };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/uptime',
      summary: 'Uptime of this process and machine, and availability of each monitor and heartbeat over 24 h, 7 d, 30 d (any member)',
      operationId: 'getUptime',
      query: NoQuery,
      success: { status: 200, description: 'availability is a ratio in [0, 1], null where nothing was observed in the window', schema: UptimeSchema },
      errors: READ_ERRORS,
      handler: async (ctx) => ({ data: await uptimeReport(deps.orm, adminActorOf(ctx).organizationId) }),
    }),
  ];
}
