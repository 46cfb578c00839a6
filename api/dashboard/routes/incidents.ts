import { z } from 'zod';
import { LIFECYCLE_OPERATIONS, type LifecycleOperation } from '../../../src/domain/incident-lifecycle';
import { listAlerts } from '../../../src/services/alerts';
import { conflict } from '../../../src/services/errors';
import { countIncidentsByStatus, getIncident, incidentTrace, listIncidents, transitionIncident } from '../../../src/services/incident';
import { withinDeadline, TEMPORAL_CALL_MS } from '../../../src/temporal/deadline';
import { escalateNowSignal, incidentWorkflowId, type IncidentSnapshot } from '../../../workflows/definitions';
import { IncidentSchema, INCIDENT_ALERTS_SHOWN, ListIncidentsQuery } from '../../customer-v1/schemas';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, pageMeta, PageQuery, type AdminDeps } from '../admin-kit';
import { knexOf } from '../../../src/db/knex';
import { withPagingHeld } from '../../../src/services/maintenance';

const IncidentIdParams = z.object({ id: z.uuid('must be an incident id (UUID)') });

const DashboardIncidentsQuery = ListIncidentsQuery.extend({
  assigned: z.enum(['me', 'my_teams'], { message: 'must be me or my_teams' }).optional(),
}).strict();

const TimelineEntrySchema = z.object({
  seq: z.number().int(),
  type: z.string(),
  at: z.iso.datetime(),
  message: z.string(),
  from_status: z.string().nullable(),
  to_status: z.string().nullable(),
  actor: z.object({ type: z.enum(['user', 'system']), id: z.string().nullable(), email: z.string().nullable(), via: z.string().nullable() }),
  data: z.record(z.string(), z.unknown()).nullable(),
});
const PageSchema = z.object({
  id: z.uuid(),
  at: z.iso.datetime(),
  channel: z.string(),
  to: z.string(),
  user: z.object({ id: z.uuid(), email: z.string() }).nullable(),
  status: z.string(),
  error: z.string().nullable(),
  fallback_reason: z.string().nullable(),
  escalation_step: z.number().int().nullable(),
  provider: z.string().nullable(),
});

const ACTION_ERRORS = {
  ...ADMIN_ERRORS,
  404: 'no such incident in this workspace',
  409: 'invalid_transition: the incident is in a state this operation cannot leave',
};

/**
 * Incidents for the people answering them (the dashboard): the list with the filters a responder
 * uses, one incident with its alerts, timeline and pages, and the lifecycle buttons, all through
 * the same services and workflows as the customer API. Any member may read and respond.
 */
export function incidentRoutes(deps: AdminDeps): RouteSpec[] {
  const incidentDeps = () => {
    if (!deps.temporal || !deps.taskQueue) throw new Error('the dashboard was built without Temporal');
    return {
      orm: deps.orm,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      autoCloseHours: deps.incidents?.autoCloseHours,
      eagerClient: deps.incidents?.eagerClient,
    };
  };
  const withLink = <T extends IncidentSnapshot>(i: T) => {
    const { organization_id: _org, ...rest } = i;
    const ui = deps.incidents
      ? `${deps.incidents.temporalUiUrl}/namespaces/${encodeURIComponent(deps.incidents.namespace)}/workflows/${encodeURIComponent(incidentWorkflowId(i.id))}`
      : null;
    return { ...rest, links: { temporal_ui: ui } };
  };
  const respond = (ctx: Parameters<RouteSpec['handler']>[0]) => {
    const actor = adminActorOf(ctx);
    return { actor, who: { type: 'user' as const, id: actor.userId, via: 'dashboard' } };
  };

  const lifecycle = (op: LifecycleOperation) =>
    defineRoute({
      method: 'post',
      access: 'write',
      path: `/incidents/{id}/${op}`,
      summary: `${op[0].toUpperCase()}${op.slice(1)} an incident (any member)`,
      operationId: `dashboard${op[0].toUpperCase()}${op.slice(1)}Incident`,
      params: IncidentIdParams,
      success: { status: 200, description: 'the incident after the change (the same operation again changes nothing)', schema: IncidentSchema },
      errors: ACTION_ERRORS,
      handler: async (ctx, { params }) => {
        const { actor, who } = respond(ctx);
        const incident = await transitionIncident(incidentDeps(), { organizationId: actor.organizationId, incidentId: params.id, operation: op, actor: who });
        return { data: withLink(incident), message: `incident #${incident.number} is ${incident.status}` };
      },
    });

  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/incidents',
      summary: 'List incidents, newest first, with counts per status (filters: status, severity, service_id, assigned=me|my_teams)',
      operationId: 'dashboardListIncidents',
      query: DashboardIncidentsQuery,
      success: {
        status: 200,
        description: 'a page of incidents; meta.next_cursor and meta.counts (per status, under the same filters)',
        schema: z.array(IncidentSchema),
      },
      errors: ADMIN_ERRORS,
      handler: async (ctx, { query }) => {
        const actor = adminActorOf(ctx);
        const filters = {
          organizationId: actor.organizationId,
          severity: query.severity,
          serviceId: query.service_id,
          pagedUserId: query.assigned === 'me' ? actor.userId : undefined,
          teamMemberUserId: query.assigned === 'my_teams' ? actor.userId : undefined,
        };
        const [page, counts] = await Promise.all([
          listIncidents({ orm: deps.orm }, { ...filters, status: query.status, limit: query.limit, cursor: query.cursor }),
          countIncidentsByStatus({ orm: deps.orm }, filters),
        ]);
        return { data: (await withPagingHeld(knexOf(deps.orm), page.incidents)).map(withLink), meta: { next_cursor: page.nextCursor, counts } };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/incidents/{id}',
      summary: 'One incident with its latest alerts, its whole timeline (with who was paged or not and why) and every page sent',
      operationId: 'dashboardGetIncident',
      params: IncidentIdParams,
      success: {
        status: 200,
        description: 'the incident',
        schema: IncidentSchema.extend({
          alerts: z.array(z.record(z.string(), z.unknown())),
          timeline: z.array(TimelineEntrySchema),
          pages: z.array(PageSchema),
        }),
      },
      errors: { ...ADMIN_ERRORS, 404: 'no such incident in this workspace' },
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const [held] = await withPagingHeld(knexOf(deps.orm), [await getIncident({ orm: deps.orm }, actor.organizationId, params.id)]);
        const incident = withLink(held);
        const [{ alerts }, trace] = await Promise.all([
          listAlerts({ orm: deps.orm }, { organizationId: actor.organizationId, incidentId: incident.id, limit: INCIDENT_ALERTS_SHOWN, offset: 0 }),
          incidentTrace(deps.orm, incident.id),
        ]);
        return { data: { ...incident, alerts, ...trace } };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/incidents/{id}/alerts',
      summary: 'A page of an incident’s alerts, newest first (a grouped or storm incident holds many: docs/grouping.md)',
      operationId: 'dashboardListIncidentAlerts',
      params: IncidentIdParams,
      query: PageQuery,
      success: { status: 200, description: 'the page; meta.total counts them all', schema: z.array(z.record(z.string(), z.unknown())) },
      errors: { ...ADMIN_ERRORS, 404: 'no such incident in this workspace' },
      handler: async (ctx, { params, query }) => {
        const actor = adminActorOf(ctx);
        const incident = await getIncident({ orm: deps.orm }, actor.organizationId, params.id);
        const { alerts, total } = await listAlerts(
          { orm: deps.orm },
          { organizationId: actor.organizationId, incidentId: incident.id, limit: query.limit, offset: query.offset },
        );
        return { data: alerts, meta: pageMeta(total, query) };
      },
    }),
    ...LIFECYCLE_OPERATIONS.map(lifecycle),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/incidents/{id}/escalate',
      summary: 'Page the next escalation step now (any member; a triggered incident only)',
      operationId: 'dashboardEscalateIncident',
      params: IncidentIdParams,
      success: { status: 202, description: 'the escalation was asked for; the timeline shows the pages', schema: z.object({ id: z.uuid() }) },
      errors: ACTION_ERRORS,
      handler: async (ctx, { params }) => {
        const { actor, who } = respond(ctx);
        const incident = await getIncident({ orm: deps.orm }, actor.organizationId, params.id);
        if (incident.status !== 'TRIGGERED')
          throw conflict(`incident #${incident.number} is ${incident.status}: only a triggered incident escalates`, 'invalid_transition');
        const { temporal } = incidentDeps();
        await withinDeadline(temporal, TEMPORAL_CALL_MS, () =>
          temporal.workflow.getHandle(incidentWorkflowId(incident.id)).signal(escalateNowSignal, { actor: who }),
        );
        return { data: { id: incident.id }, message: `escalating incident #${incident.number}` };
      },
    }),
  ];
}
