import { z } from 'zod';
import { createHeartbeat, deleteHeartbeat, getHeartbeat, listHeartbeats, setHeartbeatPaused } from '../../../src/services/ingest/heartbeats';
import { getService } from '../../../src/services/workspace/catalog';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, authorize, IdParams, type AdminActor, type AdminDeps, authorizedActor } from '../admin-kit';

const CreateHeartbeatBody = z
  .object({
    service_id: z.uuid('must be a UUID'),
    name: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
    period_seconds: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(31 * 86_400, 'must be at most 31 days'),
    grace_seconds: z.number().int('must be a whole number').min(0, 'must not be negative').max(86_400, 'must be at most a day').default(60),
  })
  .strict();

const HeartbeatSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  service_id: z.uuid(),
  period_seconds: z.number().int(),
  grace_seconds: z.number().int(),
  status: z.enum(['ACTIVE', 'PAUSED']),
  last_ping_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});
const CreatedHeartbeatSchema = HeartbeatSchema.omit({ last_ping_at: true, created_at: true }).extend({
  ping_url: z.string().describe('{ingest_url}/ping/{token}: GET, HEAD or POST to check in; shown this once'),
});
const StatusSchema = z.object({ id: z.uuid(), status: z.enum(['ACTIVE', 'PAUSED']) });

const MANAGE = 'Billing Owner, Account Admin, or a Team Manager of the team owning its service';
const MANAGE_ERRORS = {
  ...ADMIN_ERRORS,
  403: `${ADMIN_ERRORS[403]}: heartbeats.manage needs a ${MANAGE}`,
  404: 'no such heartbeat (or service) in this workspace',
} as const;

/**
 * Heartbeats under /api: check-in URLs that open an incident on their service when they go quiet.
 * Any member reads; changes are heartbeats.manage through the service's team.
 */
export function heartbeatsRoutes(deps: AdminDeps): RouteSpec[] {
  /** Refuses unless the actor may manage heartbeats of the service (404 when it is not of the workspace). */
  const mayManage = async (actor: AdminActor, serviceId: string) => {
    const service = await getService(deps.orm, actor.organizationId, serviceId);
    await authorize(deps.orm, actor, 'heartbeats.manage', service.owning_team_id);
  };
  const pauseRoute = (paused: boolean) =>
    defineRoute({
      method: 'post',
      access: 'write',
      path: `/heartbeats/{id}/${paused ? 'pause' : 'resume'}`,
      summary: paused ? `Pause a heartbeat: a silent one opens nothing (${MANAGE})` : `Resume a heartbeat: a fresh check-in window starts (${MANAGE})`,
      operationId: paused ? 'pauseHeartbeat' : 'resumeHeartbeat',
      params: IdParams,
      success: { status: 200, description: 'its status; repeating is harmless', schema: StatusSchema },
      errors: MANAGE_ERRORS,
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        await mayManage(actor, (await getHeartbeat(deps.orm, actor.organizationId, params.id)).service_id);
        const data = await setHeartbeatPaused(deps.orm, deps.temporal, params.id, paused, { organizationId: actor.organizationId, audit: auditActorOf(actor) });
        return { data, message: paused ? 'heartbeat paused' : 'heartbeat resumed' };
      },
    });
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/heartbeats',
      summary: 'List heartbeats (any member)',
      operationId: 'listHeartbeats',
      success: { status: 200, description: 'the workspace’s heartbeats, oldest first (never their ping URLs)', schema: z.array(HeartbeatSchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const heartbeats = await listHeartbeats(deps.orm, actor.organizationId);
        return { data: heartbeats, meta: { total: heartbeats.length }, message: `${heartbeats.length} heartbeat(s)` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/heartbeats',
      summary: `Create a heartbeat on a service (${MANAGE})`,
      operationId: 'createHeartbeat',
      body: CreateHeartbeatBody,
      success: { status: 201, description: 'the heartbeat and its ping URL, shown this once', schema: CreatedHeartbeatSchema },
      errors: MANAGE_ERRORS,
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        await mayManage(actor, body.service_id);
        const input = {
          organizationId: actor.organizationId,
          serviceId: body.service_id,
          name: body.name,
          periodSeconds: body.period_seconds,
          graceSeconds: body.grace_seconds,
          ingestBaseUrl: deps.webhooks.urls.ingest,
        };
        return { data: await createHeartbeat(deps.orm, input, auditActorOf(actor)), message: 'heartbeat created; keep its ping URL: it is not shown again' };
      },
    }),
    pauseRoute(true),
    pauseRoute(false),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/heartbeats/{id}',
      summary: `Delete a heartbeat: its workflow stops and its ping URL answers 404 (${MANAGE})`,
      operationId: 'deleteHeartbeat',
      params: IdParams,
      success: { status: 200, description: 'deleted', schema: z.object({ id: z.uuid(), deleted: z.literal(true) }) },
      errors: MANAGE_ERRORS,
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        await mayManage(actor, (await getHeartbeat(deps.orm, actor.organizationId, params.id)).service_id);
        return {
          data: await deleteHeartbeat(deps.orm, deps.temporal, { organizationId: actor.organizationId, id: params.id }, auditActorOf(actor)),
          message: 'heartbeat deleted',
        };
      },
    }),
  ];
}
