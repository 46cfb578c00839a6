import { z } from 'zod';
import { parseSeverity } from '../../src/domain/severity';
import type { IncidentDeps } from '../../src/services/incident';
import { acknowledgeAlert, getAlert, listAlerts, resolveAlert } from '../../src/services/alerts';
import type { Actor } from '../../src/contracts/workflows';
import { defineRoute, type RouteSpec } from '../http/route-spec';
import { AlertSchema, ListAlertsQuery } from './alert-schemas';
import { keyPrincipalOf } from './auth';
import { IdParams } from './schemas';
import { pageOf } from './envelope';
import { AUTH_ERRORS } from './inbound-webhook-routes';

/** /v1/alerts (spec surface c): any member lists, reads, acknowledges and resolves. */
export function alertRoutes(deps: IncidentDeps): RouteSpec[] {
  const actorOf = (ctx: Parameters<RouteSpec['handler']>[0]): Actor => ({ type: 'user', id: keyPrincipalOf(ctx).userId, via: 'api' });
  const target = (ctx: Parameters<RouteSpec['handler']>[0], alertId: string) => ({
    organizationId: keyPrincipalOf(ctx).organizationId,
    alertId,
    actor: actorOf(ctx),
  });
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/alerts',
      summary: 'List alerts',
      operationId: 'listAlerts',
      query: ListAlertsQuery,
      success: { status: 200, description: 'a page of the workspace’s alerts, newest first; meta.total counts every match', schema: z.array(AlertSchema) },
      errors: { ...AUTH_ERRORS, 400: 'invalid status, severity, limit or offset' },
      handler: async (ctx, { query }) => {
        const { alerts, total } = await listAlerts(deps, {
          organizationId: keyPrincipalOf(ctx).organizationId,
          status: query.status,
          severity: query.severity === undefined ? undefined : parseSeverity(query.severity),
          incidentId: query.incident_id,
          limit: query.limit,
          offset: query.offset,
        });
        return pageOf(alerts, total, query, 'alert');
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/alerts/{id}',
      summary: 'Get an alert',
      operationId: 'getAlert',
      params: IdParams,
      success: { status: 200, description: 'the alert', schema: AlertSchema },
      errors: { ...AUTH_ERRORS, 404: 'no such alert in this workspace' },
      handler: async (ctx, { params }) => ({ data: await getAlert(deps, keyPrincipalOf(ctx).organizationId, params.id), message: 'ok' }),
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/alerts/{id}/acknowledge',
      summary: 'Acknowledge an alert: its incident is acknowledged, which stops its escalation',
      operationId: 'acknowledgeAlert',
      params: IdParams,
      success: { status: 200, description: 'the alert, acknowledged', schema: AlertSchema },
      errors: {
        ...AUTH_ERRORS,
        404: 'no such alert in this workspace',
        409: 'invalid_transition: its incident cannot be acknowledged (it is RESOLVED, CLOSED or INVESTIGATING)',
      },
      handler: async (ctx, { params }) => ({ data: await acknowledgeAlert(deps, target(ctx, params.id)), message: 'alert acknowledged' }),
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/alerts/{id}/resolve',
      summary: 'Resolve an alert; resolving the last active alert of an open incident resolves the incident',
      operationId: 'resolveAlert',
      params: IdParams,
      success: { status: 200, description: 'the alert, resolved', schema: AlertSchema },
      errors: { ...AUTH_ERRORS, 404: 'no such alert in this workspace', 409: 'alert_already_resolved' },
      handler: async (ctx, { params }) => ({ data: await resolveAlert(deps, target(ctx, params.id)), message: 'alert resolved' }),
    }),
  ];
}
