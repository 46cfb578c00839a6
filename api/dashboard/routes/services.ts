import { z } from 'zod';
import { deleteServiceChat } from '../../../src/services/chat/service-chat';
import { deleteHeartbeatsOfService } from '../../../src/services/ingest/heartbeats';
import { retireSourcesOfService } from '../../../src/services/ingest/sources';
import { createService, deleteService, getServiceDetail, listServiceDetails, updateService } from '../../../src/services/workspace/catalog';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, authorize, IdParams, type AdminDeps, authorizedActor } from '../admin-kit';

const name = z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters');
const description = z.string().max(2000, 'must be at most 2000 characters');
const uuid = z.uuid('must be a UUID');

const CreateServiceBody = z
  .object({
    name,
    description: description.optional(),
    team_id: uuid.describe('the owning team'),
    escalation_policy_id: uuid.optional().describe('who is paged when an incident opens; none: nobody'),
  })
  .strict();

const UpdateServiceBody = z
  .object({
    name: name.optional(),
    description: description.nullable().optional(),
    team_id: uuid.optional().describe('moves the service to another team'),
    escalation_policy_id: uuid.nullable().optional().describe('null clears it'),
  })
  .strict();

const ServiceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  owning_team_id: z.uuid(),
  escalation_policy_id: z.uuid().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

const DeletedServiceSchema = z.object({
  id: z.uuid(),
  deleted: z.literal(true),
  sources_retired: z.number().int().describe('its alert sources, whose ingestion URLs now answer 404'),
  heartbeats_deleted: z.number().int().describe('its heartbeats, whose workflows were stopped and ping URLs now answer 404'),
  monitors_deleted: z.number().int(),
});

const MANAGE = 'Billing Owner, Account Admin, or a Team Manager in the owning team';
const MANAGE_ERRORS = { ...ADMIN_ERRORS, 403: `${ADMIN_ERRORS[403]}: services.manage needs a ${MANAGE}` } as const;

/** Services under /api: any member reads; admins and the owning team's managers change them. */
export function servicesRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/services',
      summary: 'List services (any member)',
      operationId: 'listServices',
      success: { status: 200, description: 'the workspace’s services, oldest first', schema: z.array(ServiceSchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const services = await listServiceDetails(deps.orm, actor.organizationId);
        return { data: services, meta: { total: services.length }, message: `${services.length} service(s)` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/services',
      summary: `Create a service (${MANAGE})`,
      operationId: 'createService',
      body: CreateServiceBody,
      success: { status: 201, description: 'the service', schema: ServiceSchema },
      errors: { ...MANAGE_ERRORS, 400: `${ADMIN_ERRORS[400]}; team_id or escalation_policy_id not of this workspace` },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        await authorize(deps.orm, actor, 'services.manage', body.team_id);
        const input = {
          organizationId: actor.organizationId,
          teamId: body.team_id,
          name: body.name,
          description: body.description,
          escalationPolicyId: body.escalation_policy_id,
        };
        return { data: await createService(deps.orm, input, auditActorOf(actor)), message: 'service created' };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/services/{id}',
      summary: 'Read a service (any member)',
      operationId: 'getService',
      params: IdParams,
      success: { status: 200, description: 'the service', schema: ServiceSchema },
      errors: { ...ADMIN_ERRORS, 404: 'no such service in this workspace' },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        return { data: await getServiceDetail(deps.orm, actor.organizationId, params.id), message: 'ok' };
      },
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/services/{id}',
      summary: `Change a service (${MANAGE}; moving it needs the manager in both teams)`,
      operationId: 'updateService',
      params: IdParams,
      body: UpdateServiceBody,
      success: { status: 200, description: 'the service as changed', schema: ServiceSchema },
      errors: {
        ...MANAGE_ERRORS,
        400: `${ADMIN_ERRORS[400]}; team_id or escalation_policy_id not of this workspace`,
        404: 'no such service in this workspace',
      },
      handler: async (ctx, { params, body }) => {
        const actor = adminActorOf(ctx);
        const service = await getServiceDetail(deps.orm, actor.organizationId, params.id);
        await authorize(deps.orm, actor, 'services.manage', service.owning_team_id);
        if (body.team_id !== undefined && body.team_id !== service.owning_team_id) await authorize(deps.orm, actor, 'services.manage', body.team_id);
        const patch = { name: body.name, description: body.description, teamId: body.team_id, escalationPolicyId: body.escalation_policy_id };
        return {
          data: await updateService(deps.orm, { organizationId: actor.organizationId, id: service.id, patch }, auditActorOf(actor)),
          message: 'service updated',
        };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/services/{id}',
      summary: `Delete a service with no open incident (${MANAGE}): its sources are retired, its heartbeats deleted; its incidents stay readable`,
      operationId: 'deleteService',
      params: IdParams,
      success: { status: 200, description: 'what went with it', schema: DeletedServiceSchema },
      errors: { ...MANAGE_ERRORS, 404: 'no such service in this workspace', 409: 'service_has_open_incidents: resolve or close them first' },
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const service = await getServiceDetail(deps.orm, actor.organizationId, params.id);
        await authorize(deps.orm, actor, 'services.manage', service.owning_team_id);
        const dependents = async (trx: Parameters<typeof retireSourcesOfService>[0], serviceId: string) => {
          // Its chat destinations (a Slack channel, a sealed Microsoft Teams URL) go with it.
          await deleteServiceChat(trx, serviceId);
          return {
            sources_retired: await retireSourcesOfService(trx, serviceId),
            heartbeats_deleted: await deleteHeartbeatsOfService(trx, deps.temporal, serviceId),
          };
        };
        return {
          data: await deleteService(deps.orm, { organizationId: actor.organizationId, id: service.id }, dependents, auditActorOf(actor)),
          message: 'service deleted',
        };
      },
    }),
  ];
}
