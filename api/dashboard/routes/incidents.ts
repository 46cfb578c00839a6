import { z } from 'zod';
import { LIFECYCLE_OPERATIONS, type LifecycleOperation } from '../../../src/domain/incident-lifecycle';
import { listAlerts } from '../../../src/services/alerts';
import { alertSenderDetails } from '../../../src/services/alerts/details';
import { serviceNamed } from '../../../src/services/incident/service-link';
import { conflict } from '../../../src/services/errors';
import {
  addIncidentNote,
  addIncidentResponders,
  MERGE_MAX_INCIDENTS,
  mergeIncidents,
  reassignIncident,
  countIncidentsByStatus,
  getIncident,
  incidentTrace,
  listIncidents,
  snoozeIncident,
  transitionIncident,
  bulkTransition,
  BULK_ACTIONS,
  BULK_MAX_INCIDENTS,
} from '../../../src/services/incident';
import { NoteBody, ResponderEntrySchema, RespondersBody, SnoozeBody } from '../../http/responder-schemas';
import { withinDeadline, TEMPORAL_CALL_MS } from '../../../src/temporal/deadline';
import { escalateNowSignal, incidentWorkflowId, type IncidentSnapshot } from '../../../src/contracts/workflows';
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

const BulkBody = z
  .object({
    action: z.enum(BULK_ACTIONS, { message: `action must be one of ${BULK_ACTIONS.join(', ')}` }),
    incident_ids: z
      .array(z.uuid('incident_ids must hold incident ids (UUIDs)'), { message: 'incident_ids is required (a list of incident ids)' })
      .min(1, 'incident_ids must name at least one incident')
      .max(BULK_MAX_INCIDENTS, `incident_ids may name at most ${BULK_MAX_INCIDENTS} incidents`),
  })
  .strict();
const BulkResultSchema = z.union([
  z.object({ id: z.uuid(), ok: z.literal(true), number: z.number().int(), status: z.string() }),
  z.object({ id: z.uuid(), ok: z.literal(false), code: z.string(), error: z.string() }),
]);

const MergeBody = z
  .object({
    incident_ids: z
      .array(z.uuid('incident_ids must hold incident ids (UUIDs)'), { message: 'incident_ids is required (the incidents to merge into this one)' })
      .min(1, 'incident_ids must name at least one incident')
      .max(MERGE_MAX_INCIDENTS, `incident_ids may name at most ${MERGE_MAX_INCIDENTS} incidents`),
  })
  .strict();

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
      summary:
        'One incident with its service, its latest alerts (with everything their sender said), its whole timeline (with who was paged or not and why) and every page sent',
      operationId: 'dashboardGetIncident',
      params: IncidentIdParams,
      success: {
        status: 200,
        description: 'the incident',
        schema: IncidentSchema.extend({
          service: z.object({ id: z.uuid(), name: z.string() }).nullable().describe('the service, for its name and a link to its page; null when none'),
          alerts: z
            .array(z.record(z.string(), z.unknown()))
            .describe(
              'the latest alerts, each the API-key surface’s alert with what the sender said besides: dedup_key, description, metadata (labels, links, details)',
            ),
          timeline: z.array(TimelineEntrySchema),
          pages: z.array(PageSchema),
        }),
      },
      errors: { ...ADMIN_ERRORS, 404: 'no such incident in this workspace' },
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const [held] = await withPagingHeld(knexOf(deps.orm), [await getIncident({ orm: deps.orm }, actor.organizationId, params.id)]);
        const incident = withLink(held);
        const [{ alerts }, trace, service] = await Promise.all([
          listAlerts({ orm: deps.orm }, { organizationId: actor.organizationId, incidentId: incident.id, limit: INCIDENT_ALERTS_SHOWN, offset: 0 }),
          incidentTrace(deps.orm, incident.id),
          serviceNamed(deps.orm, actor.organizationId, incident.service_id),
        ]);
        const details = await alertSenderDetails(
          deps.orm,
          actor.organizationId,
          alerts.map((a) => a.id),
        );
        const detailed = alerts.map((a) => ({ ...a, ...(details.get(a.id) ?? { dedup_key: null, description: null, metadata: {} }) }));
        return { data: { ...incident, service, alerts: detailed, ...trace } };
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
      path: '/incidents/bulk',
      summary: 'Acknowledge or resolve up to 100 incidents, each through its own workflow (any member)',
      operationId: 'dashboardBulkIncidents',
      body: BulkBody,
      success: {
        status: 200,
        description:
          'one result per incident, in the order asked (duplicates once): ok with its status, or the code and reason it was not acted on (invalid_transition, not_found, service_unavailable)',
        schema: z.object({ results: z.array(BulkResultSchema), succeeded: z.number().int(), failed: z.number().int() }),
      },
      errors: { ...ADMIN_ERRORS, 400: 'action not acknowledge or resolve, or incident_ids empty, over 100 or not UUIDs' },
      handler: async (ctx, { body }) => {
        const { actor, who } = respond(ctx);
        const results = await bulkTransition(incidentDeps(), {
          organizationId: actor.organizationId,
          action: body.action,
          incidentIds: body.incident_ids,
          actor: who,
        });
        const succeeded = results.filter((r) => r.ok).length;
        return {
          data: { results, succeeded, failed: results.length - succeeded },
          message: `${body.action}: ${succeeded} of ${results.length} incidents`,
        };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/incidents/{id}/notes',
      summary: 'Add a note to the timeline (any member; Markdown shown as text, at most 10,000 characters)',
      operationId: 'dashboardAddIncidentNote',
      params: IncidentIdParams,
      body: NoteBody,
      success: { status: 201, description: 'the note as the timeline shows it', schema: ResponderEntrySchema },
      errors: { ...ACTION_ERRORS, 400: 'text missing, empty or over 10,000 characters' },
      handler: async (ctx, { params, body }) => {
        const { actor, who } = respond(ctx);
        const entry = await addIncidentNote(incidentDeps(), { organizationId: actor.organizationId, incidentId: params.id, actor: who, text: body.text });
        return { status: 201, data: entry, message: 'note added' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/incidents/{id}/responders',
      summary: 'Page more people now through their notification rules (any member; an open incident; the timeline says who asked)',
      operationId: 'dashboardAddIncidentResponders',
      params: IncidentIdParams,
      body: RespondersBody,
      success: {
        status: 200,
        description: 'the timeline entry (whom the targets reached, who could not be paged) and how many pages were scheduled',
        schema: z.object({ entry: ResponderEntrySchema, pages: z.number().int() }),
      },
      errors: {
        ...ACTION_ERRORS,
        400: 'targets missing, over 20, of an unknown type, or not in this workspace (unknown_target); message over 1000 characters',
        409: 'invalid_transition: the incident is RESOLVED or CLOSED',
      },
      handler: async (ctx, { params, body }) => {
        const { actor, who } = respond(ctx);
        const added = await addIncidentResponders(incidentDeps(), { organizationId: actor.organizationId, incidentId: params.id, actor: who, ...body });
        return { data: added, message: `${added.pages} pages scheduled` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/incidents/{id}/reassign',
      summary: 'Reassign: back to TRIGGERED, escalation restarts with the chosen targets as its first step (any member)',
      operationId: 'dashboardReassignIncident',
      params: IncidentIdParams,
      body: RespondersBody,
      success: { status: 200, description: 'the incident after the reassign (TRIGGERED)', schema: IncidentSchema },
      errors: {
        ...ACTION_ERRORS,
        400: 'targets missing, over 20, of an unknown type, or not in this workspace (unknown_target); message over 1000 characters',
        409: 'invalid_transition: only a TRIGGERED or ACKNOWLEDGED incident is reassigned',
      },
      handler: async (ctx, { params, body }) => {
        const { actor, who } = respond(ctx);
        const incident = await reassignIncident(incidentDeps(), { organizationId: actor.organizationId, incidentId: params.id, actor: who, ...body });
        return { data: withLink(incident), message: `incident #${incident.number} reassigned` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/incidents/{id}/merge',
      summary: 'Merge other incidents into this one: their alerts move here and they resolve "merged into #N" (any member)',
      operationId: 'dashboardMergeIncidents',
      params: IncidentIdParams,
      body: MergeBody,
      success: {
        status: 200,
        description: 'this incident after the merge, and each merged incident with how many alerts moved (asking again finishes a merge cut short)',
        schema: z.object({
          incident: IncidentSchema,
          merged: z.array(z.object({ id: z.uuid(), number: z.number().int(), alerts_moved: z.number().int() })),
        }),
      },
      errors: {
        ...ACTION_ERRORS,
        400: 'incident_ids missing, empty, over 50, not UUIDs, or naming this incident',
        404: 'this incident or one of incident_ids is not in this workspace',
        409: 'invalid_transition: this incident is not open, or one to merge is resolved or closed (and not already merged into this one)',
      },
      handler: async (ctx, { params, body }) => {
        const { actor, who } = respond(ctx);
        const result = await mergeIncidents(incidentDeps(), {
          organizationId: actor.organizationId,
          incidentId: params.id,
          incidentIds: body.incident_ids,
          actor: who,
        });
        return {
          data: { ...result, incident: withLink(result.incident) },
          message: `${result.merged.length} incidents merged into #${result.incident.number}`,
        };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/incidents/{id}/snooze',
      summary: 'Snooze an acknowledged incident: it returns to TRIGGERED and pages again when the snooze ends (any member)',
      operationId: 'dashboardSnoozeIncident',
      params: IncidentIdParams,
      body: SnoozeBody,
      success: {
        status: 200,
        description: 'the snooze: its timeline entry, when it ends, and the incident (still ACKNOWLEDGED)',
        schema: z.object({ entry: ResponderEntrySchema, snoozed_until: z.iso.datetime(), incident: IncidentSchema }),
      },
      errors: {
        ...ACTION_ERRORS,
        400: 'minutes missing, not a whole number, or outside 1 to 1440',
        409: 'invalid_transition: only an ACKNOWLEDGED incident snoozes',
      },
      handler: async (ctx, { params, body }) => {
        const { actor, who } = respond(ctx);
        const snoozed = await snoozeIncident(incidentDeps(), {
          organizationId: actor.organizationId,
          incidentId: params.id,
          actor: who,
          minutes: body.minutes,
        });
        return {
          data: { ...snoozed, incident: withLink(snoozed.incident) },
          message: `incident #${snoozed.incident.number} snoozed until ${snoozed.snoozed_until}`,
        };
      },
    }),
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
