import { z } from 'zod';
import { listAuditLog } from '../../../src/services/audit';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, pageMeta, type AdminDeps, authorizedActor } from '../admin-kit';

const AuditQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).default(0),
    action: z.string().max(64).optional(),
    actor_user_id: z.uuid('must be a UUID').optional(),
  })
  .strict();

const AuditEntrySchema = z.object({
  id: z.uuid(),
  at: z.iso.datetime(),
  actor: z.object({ kind: z.enum(['user', 'system']), user_id: z.uuid().nullable(), label: z.string() }),
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string().nullable() }),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});

/** The audit log under /api: every administrative change, newest first; admins only. */
export function auditRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/audit-log',
      summary: 'Read the audit log (Billing Owner, Account Admin)',
      operationId: 'listAuditLog',
      query: AuditQuery,
      success: { status: 200, description: 'a page of entries, newest first; meta.total counts them all', schema: z.array(AuditEntrySchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx, { query }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'audit_log.read');
        const { entries, total } = await listAuditLog(deps.orm, actor.organizationId, {
          limit: query.limit,
          offset: query.offset,
          action: query.action,
          actorUserId: query.actor_user_id,
        });
        return { data: entries, meta: pageMeta(total, query), message: `${total} entr${total === 1 ? 'y' : 'ies'}` };
      },
    }),
  ];
}
