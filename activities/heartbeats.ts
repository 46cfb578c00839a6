import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { IngestItem } from '../src/domain/ingest/plan';
import { knexOf } from '../src/db/knex';
import { OPEN_STATUSES, storeResolve, storeTriggers, type SourceRef } from '../src/services/ingest';

/**
 * What a missed heartbeat does, as alert events of sender `heartbeat`: they go through the same
 * routing and outbox as ingested alerts, so the incident's workflow starts the same way.
 */
export function createHeartbeatActivities({ orm }: { orm: MikroORM }) {
  const item = (hb: { id: string; name: string; period_seconds: number; grace_seconds: number }, action: IngestItem['action']): IngestItem => ({
    action,
    title: `Heartbeat missed: ${hb.name}`.slice(0, 255),
    message: `No check-in for ${hb.period_seconds + hb.grace_seconds} s (period ${hb.period_seconds} s + grace ${hb.grace_seconds} s).`,
    description: null,
    severity: 'HIGH',
    dedupKey: `heartbeat:${hb.id}`,
    sender: 'heartbeat',
    metadata: { heartbeat_id: hb.id },
  });

  const load = (trx: ReturnType<typeof knexOf>, heartbeatId: string) =>
    trx('heartbeats as h')
      .join('services as s', 's.id', 'h.service_id')
      .select('h.id', 'h.name', 'h.organization_id', 'h.service_id', 's.team_id', 'h.period_seconds', 'h.grace_seconds', 'h.status')
      .where('h.id', heartbeatId)
      .first();

  /** Opens (or finds, on a retry) the missed-check-in incident; null when the heartbeat is paused or gone. */
  async function openMissedHeartbeat({ heartbeatId }: { heartbeatId: string }): Promise<string | null> {
    return knexOf(orm).transaction(async (trx) => {
      const hb = await load(trx, heartbeatId);
      if (!hb || hb.status !== 'ACTIVE') return null;
      const open = await trx('incidents')
        .where({ service_id: hb.service_id, dedup_key: `heartbeat:${hb.id}` })
        .whereIn('status', OPEN_STATUSES)
        .first('id');
      if (open) return open.id as string;
      const source: SourceRef = { id: hb.id, organizationId: hb.organization_id, serviceId: hb.service_id, teamId: hb.team_id };
      const [stored] = await storeTriggers(trx, [{ source, item: item(hb, 'trigger'), eventId: randomUUID() }]);
      return stored.incidentId;
    });
  }

  /** Resolves the missed-check-in alert; its incident resolves once no other alert is active. */
  async function resolveMissedHeartbeat({ heartbeatId }: { heartbeatId: string }): Promise<void> {
    await knexOf(orm).transaction(async (trx) => {
      const hb = await load(trx, heartbeatId);
      if (!hb) return;
      await storeResolve(
        trx,
        { id: hb.id, organizationId: hb.organization_id, serviceId: hb.service_id, teamId: hb.team_id },
        item(hb, 'resolve'),
        randomUUID(),
      );
    });
  }

  return { openMissedHeartbeat, resolveMissedHeartbeat };
}
