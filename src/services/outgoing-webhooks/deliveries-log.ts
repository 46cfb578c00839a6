import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { IncidentEventBody } from '../../domain/incident-events';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { recordAudit } from '../audit';
import { notFound } from '../errors';
import { FEED_CONSUMER } from './fan-out';
import { assertPlanAllows, managedSubscription, type OutgoingWebhookActor } from './manage';
import { DELIVERY_COLUMNS, deliveryJson, type DeliveryJson, type DeliveryRow } from './views';

/**
 * A subscription's delivery log, its test `ping` and redelivery. These only write rows of
 * `feed_deliveries` (consumer `outgoing-webhooks`, target the subscription), due now: the deliverer (src/integrations/outgoing-webhooks/) sends them, signs
 * them and retries them.
 */

const DELIVERIES = 'feed_deliveries';

/** A page of a subscription's deliveries, newest first. */
export async function listDeliveries(
  orm: MikroORM,
  actor: OutgoingWebhookActor,
  webhookId: string,
  page: { limit: number; offset: number },
): Promise<{ deliveries: DeliveryJson[]; total: number }> {
  const db = knexOf(orm);
  const hook = await managedSubscription(db, actor, webhookId);
  const [rows, [{ n }]] = await Promise.all([
    db(DELIVERIES)
      .select(...DELIVERY_COLUMNS)
      .where({ consumer: FEED_CONSUMER, target_id: hook.id })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'lane_seq', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(page.offset),
    db(DELIVERIES).count({ n: '*' }).where({ consumer: FEED_CONSUMER, target_id: hook.id }),
  ]);
  return { deliveries: (rows as DeliveryRow[]).map(deliveryJson), total: Number(n) };
}

/**
 * Queues a `ping` to the subscription: a new event id, no incident, due now. The plan must
 * include outgoing webhooks (a FREE workspace after a downgrade sends none).
 */
export async function queueTestPing(orm: MikroORM, actor: OutgoingWebhookActor, webhookId: string): Promise<DeliveryJson> {
  const db = knexOf(orm);
  const hook = await managedSubscription(db, actor, webhookId);
  const now = new Date();
  const eventId = randomUUID();
  const event: IncidentEventBody = {
    id: eventId,
    type: 'ping',
    created_at: now.toISOString(),
    organization_id: actor.organizationId,
    incident: null,
    actor: null,
    data: {},
  };
  const row = {
    id: randomUUID(),
    consumer: FEED_CONSUMER,
    target_id: hook.id,
    organization_id: actor.organizationId,
    event_id: eventId,
    incident_id: null,
    type: 'ping',
    event: JSON.stringify(event),
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
  };
  await db.transaction(async (trx) => {
    await assertPlanAllows(trx, actor.organizationId, 0);
    await trx(DELIVERIES).insert(row);
    await recordAudit(trx, {
      organizationId: actor.organizationId,
      actor: actor.audit,
      action: 'outgoing_webhook.test',
      targetType: 'outgoing_webhook',
      targetId: hook.id,
      details: { delivery_id: row.id, event_id: eventId },
    });
  });
  return deliveryJson({ ...row, last_status_code: null, last_error: null, latency_ms: null, delivered_at: null });
}

/**
 * Sends one delivery again: a NEW row copying the old one's event (same `event_id`, so the
 * receiver's `webhook-id` stays the same and it can drop a duplicate), attempts 0, due now. The
 * old row stays in the log as it was.
 */
export async function redeliver(orm: MikroORM, actor: OutgoingWebhookActor, webhookId: string, deliveryId: string): Promise<DeliveryJson> {
  const db = knexOf(orm);
  const hook = await managedSubscription(db, actor, webhookId);
  const old = isUuid(deliveryId)
    ? await db(DELIVERIES)
        .select('consumer', 'target_id', 'organization_id', 'event_id', 'incident_id', 'type', 'event')
        .where({ id: deliveryId, consumer: FEED_CONSUMER, target_id: hook.id, organization_id: actor.organizationId })
        .first()
    : undefined;
  if (!old) throw notFound(`delivery ${deliveryId} not found`);
  const now = new Date();
  const row = { ...old, id: randomUUID(), event: JSON.stringify(old.event), attempts: 0, next_attempt_at: now, created_at: now };
  await db.transaction(async (trx) => {
    await assertPlanAllows(trx, actor.organizationId, 0);
    await trx(DELIVERIES).insert(row);
    await recordAudit(trx, {
      organizationId: actor.organizationId,
      actor: actor.audit,
      action: 'outgoing_webhook.redeliver',
      targetType: 'outgoing_webhook',
      targetId: hook.id,
      details: { delivery_id: row.id, redelivery_of: deliveryId, event_id: old.event_id, type: old.type },
    });
  });
  return deliveryJson({ ...row, last_status_code: null, last_error: null, latency_ms: null, delivered_at: null });
}
