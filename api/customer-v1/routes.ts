import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { LIFECYCLE_OPERATIONS, type LifecycleOperation } from '../../src/domain/incident-lifecycle';
import { isUuid } from '../../src/domain/ids';
import { notFound } from '../../src/services/errors';
import { getMonitor, getService, listMonitors, listServices } from '../../src/services/workspace';
import { listAlerts } from '../../src/services/alerts';
import { addIncidentNote, createIncident, getIncident, listIncidents, transitionIncident } from '../../src/services/incident';
import { NoteBody, ResponderEntrySchema } from '../http/responder-schemas';
import { knexOf } from '../../src/db/knex';
import { withPagingHeld } from '../../src/services/maintenance';
import { incidentWorkflowId, type Actor, type IncidentSnapshot } from '../../src/contracts/workflows';
import { defineRoute, type RouteSpec } from '../http/route-spec';
import { principalOf } from './auth';
import {
  CreateIncidentBody,
  IncidentListMeta,
  IncidentParams,
  IncidentDetailSchema,
  IncidentSchema,
  INCIDENT_ALERTS_SHOWN,
  ListIncidentsQuery,
  MonitorParams,
  MonitorSchema,
  OrgParams,
  ServiceParams,
  ServiceSchema,
} from './schemas';

export interface CustomerV1Deps {
  orm: MikroORM;
  temporal: Client;
  /** A client on a worker's connection in this process, if any: new incidents start eagerly on it. */
  eagerClient?: Client;
  taskQueue: string;
  /** AUTO_CLOSE_HOURS, for the incident workflows the API starts. */
  autoCloseHours?: number;
  namespace: string;
  temporalUiUrl: string;
}

const AUTH_ERRORS = {
  401: 'missing, invalid, expired or revoked token',
  403: 'token not allowed: another workspace, owner no longer admin, unverified account, or plan without API access',
  503: 'service_unavailable: the database or Temporal cannot be reached; nothing was changed, retry after `Retry-After` seconds',
} as const;

const READ_ERRORS = { 400: 'invalid path or query parameter', ...AUTH_ERRORS };
const WRITE_ERRORS = { ...READ_ERRORS, 403: `${AUTH_ERRORS[403]}, or a READ_ONLY token` };

/** Every route of the customer API v1 (spec surface a), relative to /api/v1. */
export function customerV1Routes(deps: CustomerV1Deps): RouteSpec[] {
  const withLinks = <T extends IncidentSnapshot>(i: T) => {
    const { organization_id: _org, ...rest } = i;
    const workflowId = encodeURIComponent(incidentWorkflowId(i.id));
    return { ...rest, links: { temporal_ui: `${deps.temporalUiUrl}/namespaces/${encodeURIComponent(deps.namespace)}/workflows/${workflowId}` } };
  };
  /** Incidents as the API shows them: links, and whether a maintenance window holds their paging. */
  const shown = async (incidents: IncidentSnapshot[]) => (await withPagingHeld(knexOf(deps.orm), incidents)).map(withLinks);
  const one = async (incident: IncidentSnapshot) => (await shown([incident]))[0];
  const actorOf = (ctx: Parameters<RouteSpec['handler']>[0]): Actor => ({ type: 'user', id: principalOf(ctx).userId, via: 'api' });
  const incidentDeps = {
    orm: deps.orm,
    temporal: deps.temporal,
    taskQueue: deps.taskQueue,
    autoCloseHours: deps.autoCloseHours,
    eagerClient: deps.eagerClient,
  };

  const lifecycle = (op: LifecycleOperation) =>
    defineRoute({
      method: 'post',
      access: 'write',
      path: `/organizations/{organization_id}/incidents/{incident_id}/${op}`,
      operationId: `${op}Incident`,
      summary: `${op[0].toUpperCase()}${op.slice(1)} an incident`,
      params: IncidentParams,
      success: {
        status: 200,
        description: 'The incident after the change (a repeat of the same operation changes nothing)',
        schema: z.object({ data: IncidentSchema }),
      },
      errors: { ...WRITE_ERRORS, 404: 'no such incident in this workspace', 409: 'invalid_transition: the incident is in a state this operation cannot leave' },
      handler: async (ctx, { params }) => ({
        data: await one(
          await transitionIncident(incidentDeps, {
            organizationId: params.organization_id,
            incidentId: params.incident_id,
            operation: op,
            actor: actorOf(ctx),
          }),
        ),
      }),
    });

  return [
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/organizations/{organization_id}/incidents/{incident_id}/notes',
      operationId: 'addIncidentNote',
      summary: 'Add a note to an incident’s timeline (at most 10,000 characters; also an `incident.note_added` event)',
      params: IncidentParams,
      body: NoteBody,
      success: { status: 201, description: 'The note as the timeline shows it', schema: z.object({ data: ResponderEntrySchema }) },
      errors: { ...WRITE_ERRORS, 400: 'text missing, empty or over 10,000 characters', 404: 'no such incident in this workspace' },
      handler: async (ctx, { params, body }) => ({
        status: 201,
        data: await addIncidentNote(incidentDeps, {
          organizationId: params.organization_id,
          incidentId: params.incident_id,
          actor: actorOf(ctx),
          text: body.text,
        }),
      }),
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/organizations/{organization_id}/incidents',
      operationId: 'listIncidents',
      summary: 'List incidents, newest first',
      params: OrgParams,
      query: ListIncidentsQuery,
      success: { status: 200, description: 'A page of incidents', schema: z.object({ data: z.array(IncidentSchema), meta: IncidentListMeta }) },
      errors: READ_ERRORS,
      handler: async (_ctx, { params, query }) => {
        const page = await listIncidents(deps, {
          organizationId: params.organization_id,
          status: query.status,
          severity: query.severity,
          serviceId: query.service_id,
          limit: query.limit,
          cursor: query.cursor,
        });
        return { data: await shown(page.incidents), meta: { next_cursor: page.nextCursor } };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/organizations/{organization_id}/incidents/{incident_id}',
      operationId: 'getIncident',
      summary: 'One incident',
      params: IncidentParams,
      success: { status: 200, description: 'The incident, with its latest alerts', schema: z.object({ data: IncidentDetailSchema }) },
      errors: { ...READ_ERRORS, 404: 'no such incident in this workspace' },
      handler: async (_ctx, { params }) => {
        const incident = await one(await getIncident(deps, params.organization_id, params.incident_id));
        const { alerts } = await listAlerts(deps, { organizationId: params.organization_id, incidentId: incident.id, limit: INCIDENT_ALERTS_SHOWN, offset: 0 });
        return { data: { ...incident, alerts } };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/organizations/{organization_id}/incidents',
      operationId: 'createIncident',
      summary: 'Open an incident; its workflow is running when the answer arrives',
      params: OrgParams,
      body: CreateIncidentBody,
      success: { status: 201, description: 'The new incident', schema: z.object({ data: IncidentSchema }) },
      errors: { ...WRITE_ERRORS, 400: 'invalid body (title, severity, owning_team_id)', 415: 'body is not JSON' },
      handler: async (ctx, { params, body }) => ({
        data: await one(
          await createIncident(incidentDeps, {
            organizationId: params.organization_id,
            title: body.title,
            description: body.description ?? null,
            severity: body.severity,
            owningTeamId: body.owning_team_id,
            actor: actorOf(ctx),
          }),
        ),
      }),
    }),
    ...LIFECYCLE_OPERATIONS.map(lifecycle),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/organizations/{organization_id}/services',
      operationId: 'listServices',
      summary: 'List services',
      params: OrgParams,
      success: { status: 200, description: 'Services of the workspace', schema: z.object({ data: z.array(ServiceSchema) }) },
      errors: READ_ERRORS,
      handler: async (_ctx, { params }) => ({ data: await listServices(deps.orm, params.organization_id) }),
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/organizations/{organization_id}/services/{service_id}',
      operationId: 'getService',
      summary: 'One service',
      params: ServiceParams,
      success: { status: 200, description: 'The service', schema: z.object({ data: ServiceSchema }) },
      errors: { ...READ_ERRORS, 404: 'no such service in this workspace' },
      handler: async (_ctx, { params }) => ({ data: await getService(deps.orm, params.organization_id, uuidOr404(params.service_id, 'service')) }),
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/organizations/{organization_id}/monitors',
      operationId: 'listMonitors',
      summary: 'List monitors',
      params: OrgParams,
      success: { status: 200, description: 'Monitors of the workspace', schema: z.object({ data: z.array(MonitorSchema) }) },
      errors: READ_ERRORS,
      handler: async (_ctx, { params }) => ({ data: await listMonitors(deps.orm, params.organization_id) }),
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/organizations/{organization_id}/monitors/{monitor_id}',
      operationId: 'getMonitor',
      summary: 'One monitor',
      params: MonitorParams,
      success: { status: 200, description: 'The monitor', schema: z.object({ data: MonitorSchema }) },
      errors: { ...READ_ERRORS, 404: 'no such monitor in this workspace' },
      handler: async (_ctx, { params }) => ({ data: await getMonitor(deps.orm, params.organization_id, uuidOr404(params.monitor_id, 'monitor')) }),
    }),
  ];
}

/** A malformed id names nothing: answer 404 as for any unknown id, without a query. */
function uuidOr404(id: string, what: string): string {
  if (!isUuid(id)) throw notFound(`${what} ${id} not found`);
  return id;
}
