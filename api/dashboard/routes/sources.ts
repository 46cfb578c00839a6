import { z } from 'zod';
import { FORM_B_CHANNEL_LIST } from '../../../src/domain/paging/form-b-channels';
import { WEBHOOK_NAME, WEBHOOK_STATUSES } from '../../../src/domain/inbound-webhooks';
import { recordAudit } from '../../../src/services/audit';
import {
  createInboundWebhook,
  deleteInboundWebhook,
  getInboundWebhook,
  listInboundWebhooks,
  rotateSigningSecret,
  rotateWebhookUrl,
  updateInboundWebhook,
} from '../../../src/services/inbound-webhooks';
import { stormSettingSchema } from '../../../src/domain/grouping/storm';
import { setSourceStorm, stormOfSources } from '../../../src/services/grouping/storm-settings';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ROUTING_KEY_DESCRIPTION } from './inbound-webhook-schemas';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, IdParams, PageQuery, pageMeta, type AdminActor, type AdminDeps, authorizedActor } from '../admin-kit';

const name = z
  .string()
  .trim()
  .min(WEBHOOK_NAME.min, `must be at least ${WEBHOOK_NAME.min} characters`)
  .max(WEBHOOK_NAME.max, `must be at most ${WEBHOOK_NAME.max} characters`);
const description = z.string().max(2000, 'must be at most 2000 characters');
const channels = z
  .array(z.string().max(32, 'must be at most 32 characters'))
  .min(1, 'must name at least one channel')
  .max(8, 'must name at most 8 channels')
  .describe(`the channels it pages, by severity (Form B): ${FORM_B_CHANNEL_LIST}`);
const ipAllowlist = z
  .array(z.string().max(64, 'must be at most 64 characters'))
  .max(100, 'at most 100 entries')
  .describe('IPv4/IPv6 addresses or CIDRs its Form B receiver accepts');

const CreateSourceBody = z
  .object({
    name,
    service_id: z.uuid('must be a UUID').optional().describe('optional while the workspace has one service (a new workspace’s "Default service")'),
    channels: channels.optional().describe('none: a plain source, paging its service’s escalation policy'),
    description: description.optional(),
    ip_allowlist: ipAllowlist.optional(),
    signed: z.boolean().optional().describe('a signing secret for X-Service-Signature; default true when channels are given'),
  })
  .strict();

const UpdateSourceBody = z
  .object({
    name: name.optional(),
    description: description.optional(),
    channels: channels.optional(),
    ip_allowlist: ipAllowlist.optional(),
    status: z
      .enum(WEBHOOK_STATUSES, `must be one of ${WEBHOOK_STATUSES.join(', ')}`)
      .optional()
      .describe('PAUSED: its ingestion URL answers 423 until ACTIVE again'),
    storm: stormSettingSchema.optional().describe('its storm guard (docs/grouping.md); null turns it off'),
  })
  .strict();

const SourceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  alias: z.string(),
  description: z.string(),
  status: z.enum(WEBHOOK_STATUSES),
  webhook_url: z.string().nullable().describe('its secret ingestion URL; null for a source made before URLs were kept: rotate it to see one'),
  receiver_url: z.string().describe('its Form B receiver (sources with channels)'),
  routing_key: z.string().describe(ROUTING_KEY_DESCRIPTION),
  service_id: z.uuid(),
  channels: z.array(z.string()).nullable().describe('null: it pages its service’s escalation policy'),
  notification_types: z.array(z.string()),
  signed: z.boolean(),
  ip_allowlist: z.array(z.string()),
  statistics: z.object({ total_calls: z.number().int(), successful_calls: z.number().int(), failed_calls: z.number().int() }),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  storm: z
    .object({ max_new_incidents: z.number().int(), within_seconds: z.number().int(), quiet_seconds: z.number().int() })
    .nullable()
    .optional()
    .describe('the storm guard it runs under (STORM_GUARD unless set on the source); null: off'),
  in_storm: z.boolean().optional().describe('its new alerts are joining its storm incident now'),
});
const CreatedSourceSchema = SourceSchema.extend({ signing_secret: z.string().nullable().describe('shown this once; null when not signed') });

const MANAGE = 'Billing Owner, Account Admin, or a Team Manager of the team owning its service';
const MANAGE_ERRORS = {
  ...ADMIN_ERRORS,
  403: `${ADMIN_ERRORS[403]}: sources.manage needs a ${MANAGE}`,
  404: 'no such source (or service) in this workspace',
} as const;

/**
 * Alert sources under /api: every source of the workspace, webhooks (with channels) and plain
 * ones, through the webhook service (docs/architecture.md, "Inbound webhooks"), which holds the one check of who may change
 * them. Any member reads.
 */
export function sourcesRoutes(deps: AdminDeps): RouteSpec[] {
  const w = deps.webhooks;
  // Each source's storm guard, and whether it is in a storm now, beside its record.
  const withStorm = async <T extends { id: string }>(records: T[]) => {
    const storms = await stormOfSources(
      deps.orm,
      records.map((r) => r.id),
      deps.stormGuard ?? null,
    );
    return records.map((r) => ({ ...r, ...(storms.get(r.id) ?? { storm: null, in_storm: false }) }));
  };
  const audit = (actor: AdminActor, action: string, targetId: string, details: Record<string, unknown>) =>
    recordAudit(deps.orm, { organizationId: actor.organizationId, actor: auditActorOf(actor), action, targetType: 'source', targetId, details });
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/sources',
      summary: 'List alert sources (any member)',
      operationId: 'listSources',
      query: PageQuery,
      success: { status: 200, description: 'a page of the workspace’s sources, oldest first; meta.total counts them all', schema: z.array(SourceSchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx, { query }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const { webhooks, total } = await listInboundWebhooks(w, actor.organizationId, query, 'all');
        return { data: await withStorm(webhooks), meta: pageMeta(total, query), message: `${total} source(s)` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/sources',
      summary: `Create an alert source (${MANAGE})`,
      operationId: 'createSource',
      body: CreateSourceBody,
      success: {
        status: 201,
        description: 'the source with its ingestion URL and, when signed, its signing secret (shown this once)',
        schema: CreatedSourceSchema,
      },
      errors: { ...MANAGE_ERRORS, 403: `${MANAGE_ERRORS[403]}; plan_limit_reached: the plan’s number of sources is reached` },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        const created = await createInboundWebhook(w, actor, {
          name: body.name,
          serviceId: body.service_id,
          channels: body.channels,
          description: body.description,
          ipAllowlist: body.ip_allowlist,
          signed: body.signed ?? body.channels !== undefined,
        });
        await audit(actor, 'source.create', created.id, {
          name: created.name,
          service_id: created.service_id,
          channels: created.channels,
          signed: created.signed,
        });
        return { data: created, message: created.signing_secret ? 'source created; keep its signing secret: it is not shown again' : 'source created' };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/sources/{id}',
      summary: 'Read an alert source (any member)',
      operationId: 'getSource',
      params: IdParams,
      success: { status: 200, description: 'the source', schema: SourceSchema },
      errors: { ...ADMIN_ERRORS, 404: 'no such source in this workspace' },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        return { data: (await withStorm([await getInboundWebhook(w, actor.organizationId, params.id, 'all')]))[0], message: 'ok' };
      },
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/sources/{id}',
      summary: `Change an alert source: name, description, channels, IP allowlist, ACTIVE or PAUSED (${MANAGE})`,
      operationId: 'updateSource',
      params: IdParams,
      body: UpdateSourceBody,
      success: {
        status: 200,
        description: 'the source as changed; a plain source given channels becomes a webhook and gets a signing secret, shown this once',
        schema: SourceSchema.extend({ signing_secret: z.string().optional().describe('only when this change made the source a webhook') }),
      },
      errors: MANAGE_ERRORS,
      handler: async (ctx, { params, body }) => {
        const actor = adminActorOf(ctx);
        const patch = { name: body.name, description: body.description, channels: body.channels, ipAllowlist: body.ip_allowlist, status: body.status };
        const updated = await updateInboundWebhook(w, actor, params.id, patch, 'all');
        if (body.storm !== undefined) await setSourceStorm(deps.orm, updated.id, body.storm);
        await audit(actor, 'source.update', updated.id, { name: updated.name, changed: Object.keys(body), ...(body.status && { status: body.status }) });
        return {
          data: (await withStorm([updated]))[0],
          message: updated.signing_secret ? 'source updated; it is a webhook now: keep its signing secret, it is not shown again' : 'source updated',
        };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/sources/{id}/rotate',
      summary: `New ingestion URL and routing key; the old ones stop working at once (${MANAGE})`,
      operationId: 'rotateSource',
      params: IdParams,
      success: { status: 200, description: 'the source with its new ingestion URL and routing key', schema: SourceSchema },
      errors: MANAGE_ERRORS,
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const rotated = await rotateWebhookUrl(w, actor, params.id, 'all');
        await audit(actor, 'source.rotate', rotated.id, { name: rotated.name });
        return { data: rotated, message: 'ingestion URL and routing key rotated; the old ones no longer work' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/sources/{id}/rotate-signing-secret',
      summary: `New signing secret; the old one stops verifying at once (${MANAGE})`,
      operationId: 'rotateSourceSigningSecret',
      params: IdParams,
      success: { status: 200, description: 'the new signing secret, shown this once', schema: z.object({ id: z.uuid(), signing_secret: z.string() }) },
      errors: MANAGE_ERRORS,
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const rotated = await rotateSigningSecret(w, actor, params.id, 'all');
        await audit(actor, 'source.rotate_signing_secret', rotated.id, {});
        return { data: rotated, message: 'signing secret rotated; keep it: it is not shown again' };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/sources/{id}',
      summary: `Revoke an alert source: its URLs answer 404; its alerts and incidents remain (${MANAGE})`,
      operationId: 'deleteSource',
      params: IdParams,
      success: { status: 200, description: 'revoked', schema: z.object({ id: z.uuid(), deleted: z.literal(true) }) },
      errors: MANAGE_ERRORS,
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const before = await getInboundWebhook(w, actor.organizationId, params.id, 'all');
        const deleted = await deleteInboundWebhook(w, actor, params.id, 'all');
        await audit(actor, 'source.delete', deleted.id, { name: before.name, service_id: before.service_id });
        return { data: deleted, message: 'source revoked' };
      },
    }),
  ];
}
