import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { TEMPORAL_CALL_MS, withinDeadline } from '../../temporal/deadline';
import { deliverBatch, type DeliveryTarget } from '../relay/delivery';
import type { PendingRow } from '../relay/outbox-rows';
import { openIncident, withdrawIncident, type IncidentOpening } from './store';
import type { IncidentRow } from './view';

/** An opened incident's row, with the timeline seq its workflow starts from. */
export type OpenedRow = IncidentRow & { last_seq: number };

/**
 * Opens an incident from the API so that it either pages or was never there:
 * 1. its row, its `created` entry and an `opened` outbox message commit together: from then on a
 *    relay delivers the message (and the incident pages) even if this process dies;
 * 2. a second transaction locks the message (a relay claiming rows waits for it, or skips it),
 *    starts the workflow as the relay would, and marks the message delivered;
 * 3. when the start fails (Temporal away), that same transaction takes the message and the
 *    incident back, and the error reaches the caller (503). A message a relay delivered first is
 *    left alone: the incident stands.
 * When Postgres fails the second transaction, the message stays pending and a relay delivers it
 * once Postgres is back: the incident stands, and is answered as opened.
 */
export async function openAndStart(deps: { orm: MikroORM; target: DeliveryTarget }, opening: IncidentOpening): Promise<OpenedRow> {
  const knex = knexOf(deps.orm);
  const message = { id: randomUUID(), event_id: randomUUID() };
  const row = await knex.transaction(async (trx) => {
    const opened = await openIncident(trx, opening);
    await trx('ingest_outbox').insert({ id: message.id, incident_id: opened.id, event_id: message.event_id, kind: 'opened', created_at: new Date() });
    return { ...opened, last_seq: 1 };
  });
  let startFailure: unknown;
  try {
    await knex.transaction(async (trx) => {
      const pending = await trx('ingest_outbox').where({ id: message.id }).whereNull('delivered_at').forUpdate().first('id');
      if (!pending) return; // a relay delivered it first
      try {
        await withinDeadline(deps.target.temporal, TEMPORAL_CALL_MS, () => deliverBatch(deps.target, [pendingRow(row, message)]));
      } catch (err) {
        await trx('ingest_outbox').where({ id: message.id }).whereNull('delivered_at').delete();
        await withdrawIncident(trx, row.id);
        startFailure = err;
        return;
      }
      await trx('ingest_outbox').where({ id: message.id }).update({ delivered_at: new Date() });
    });
  } catch {
    // Postgres failed us after step 1 committed (even while taking the incident back): the
    // message is still pending, so a relay delivers it and the incident pages.
    return row;
  }
  if (startFailure) throw startFailure;
  return row;
}

/** The outbox message as the relay would read it (outbox-rows.ts pendingRows). */
const pendingRow = (row: OpenedRow, message: { id: string; event_id: string }): PendingRow => ({
  id: message.id,
  event_id: message.event_id,
  kind: 'opened',
  incident_seq: null,
  detail: null,
  attempts: 0,
  incident_id: row.id,
  organization_id: row.organization_id,
  service_id: row.service_id,
  severity: row.severity,
  status: row.status,
  last_seq: row.last_seq,
  title: row.title,
});
