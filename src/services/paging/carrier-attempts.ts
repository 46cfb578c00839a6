/**
 * Carrier attempts (docs/reliability.md, "Carriers"): the one writer of `carrier_attempts`, one row
 * per carrier a phone page went to. The send activity records what each carrier answered; a
 * delivery report settles the attempt it names (also a late one, after the page moved on to the
 * next carrier: the breaker still counts it); the failover check settles an attempt that was
 * never confirmed. The circuit breaker and /api/status read them.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import { BREAKER_SAMPLE, BREAKER_WINDOW_MS, carrierHealth, type CarrierHealth, type CarrierOutcome } from '../../domain/paging/carrier-breaker';
import type { Carrier } from '../../domain/paging/carrier-routes';

const clip = (message: string | null) => message && message.slice(0, 2000);

/**
 * What a carrier answered a send: it took the page (its message id) or refused it. A report on
 * the message that came first (holdEarlyReport) is taken in the same statement: the attempt is
 * recorded settled. Answers the attempt's status.
 */
export async function recordCarrierAttempt(
  k: Knex,
  attempt: {
    notificationId: string;
    incidentId: string;
    carrier: string;
    channel: string;
    status: 'sent' | 'refused';
    providerMessageId: string | null;
    error: string | null;
  },
): Promise<'sent' | 'refused' | 'delivered' | 'failed'> {
  const now = new Date();
  const { rows } = (await k.raw(
    `with early as (delete from carrier_early_reports where provider_message_id = :pmid and :status = 'sent' returning status, error)
     insert into carrier_attempts (id, notification_id, incident_id, carrier, channel, provider_message_id, status, error, created_at, settled_at)
     select :id, :notificationId, :incidentId, :carrier, :channel, :pmid, coalesce(e.status, :status), coalesce(e.error, :error), :now,
            case when e.status is null then null else cast(:now as timestamptz) end
       from (select 1) as one left join early e on true
     returning status`,
    {
      id: randomUUID(),
      notificationId: attempt.notificationId,
      incidentId: attempt.incidentId,
      carrier: attempt.carrier,
      channel: attempt.channel,
      pmid: attempt.providerMessageId,
      status: attempt.status,
      error: clip(attempt.error),
      now,
    },
  )) as { rows: Array<{ status: 'sent' | 'refused' | 'delivered' | 'failed' }> };
  return rows[0]!.status;
}

/**
 * A report on a message no attempt (and no page) holds yet: the carrier reported before Klaxon
 * recorded its answer to the send. Kept for the attempt to take (recordCarrierAttempt); the first
 * report wins.
 */
export async function holdEarlyReport(k: Knex, report: { providerMessageId: string; status: 'delivered' | 'failed'; error: string | null }): Promise<void> {
  await k('carrier_early_reports')
    .insert({ provider_message_id: report.providerMessageId, status: report.status, error: clip(report.error), received_at: new Date() })
    .onConflict('provider_message_id')
    .ignore();
}

/** A held report its attempt will not take (the report settled the attempt itself). */
export async function dropEarlyReport(k: Knex, providerMessageId: string): Promise<void> {
  await k('carrier_early_reports').where({ provider_message_id: providerMessageId }).del();
}

/** An attempt a delivery report settled: how long its carrier took, for the delivery histogram. */
export interface SettledCarrierAttempt {
  /** No later attempt of the page exists: the report is on the carrier the page is with now. */
  current: boolean;
  notificationId: string;
  incidentId: string;
  carrier: string;
  channel: string;
  status: 'delivered' | 'failed';
  deliveredInMs: number;
}

/** A carrier's delivery report on the attempt it took (by its message id): settled once, the first report wins. */
export async function settleCarrierAttempt(
  k: Knex,
  report: { providerMessageId: string; status: 'delivered' | 'failed'; error: string | null },
): Promise<SettledCarrierAttempt | undefined> {
  const now = new Date();
  const { rows } = (await k.raw(
    `update carrier_attempts a set status = :status, error = :error, settled_at = :now
      where a.provider_message_id = :id and a.status = 'sent'
      returning a.notification_id, a.incident_id, a.carrier, a.channel, a.created_at,
                not exists (select 1 from carrier_attempts later where later.notification_id = a.notification_id and later.created_at > a.created_at) as current`,
    { status: report.status, error: clip(report.error), now, id: report.providerMessageId },
  )) as { rows: Array<{ notification_id: string; incident_id: string; carrier: string; channel: string; created_at: Date; current: boolean }> };
  const row = rows[0];
  if (!row) return undefined;
  return {
    current: row.current,
    notificationId: row.notification_id,
    incidentId: row.incident_id,
    carrier: row.carrier,
    channel: row.channel,
    status: report.status,
    deliveredInMs: now.getTime() - new Date(row.created_at).getTime(),
  };
}

/** A page's attempts, oldest first. */
export interface CarrierAttemptRow {
  carrier: string;
  status: 'refused' | 'sent' | 'delivered' | 'failed';
  error: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

export async function carrierAttemptsOf(k: Knex, notificationId: string): Promise<CarrierAttemptRow[]> {
  const rows = (await k('carrier_attempts')
    .where({ notification_id: notificationId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('carrier', 'status', 'error', 'created_at', 'settled_at')) as Array<{
    carrier: string;
    status: CarrierAttemptRow['status'];
    error: string | null;
    created_at: Date;
    settled_at: Date | null;
  }>;
  return rows.map((r) => ({
    carrier: r.carrier,
    status: r.status,
    error: r.error,
    createdAt: new Date(r.created_at),
    settledAt: r.settled_at && new Date(r.settled_at),
  }));
}

/**
 * The page's newest attempt through `carrier`, still unconfirmed, settled as failed: the page
 * goes on to the next carrier, and the breaker counts the silence against this one. False when a
 * report settled it first (then it stands).
 */
export async function settleUnconfirmed(k: Knex, notificationId: string, carrier: string, error: string): Promise<boolean> {
  const updated = await k('carrier_attempts')
    .where({ notification_id: notificationId, carrier, status: 'sent' })
    .update({ status: 'failed', error: clip(error), settled_at: new Date() });
  return updated > 0;
}

/**
 * Every carrier's health now (src/domain/paging/carrier-breaker.ts), from the newest settled
 * attempts of the breaker's window: one indexed read per carrier.
 */
export async function carriersHealth(k: Knex, carriers: readonly Carrier[], now = new Date()): Promise<CarrierHealth[]> {
  if (carriers.length === 0) return [];
  const since = new Date(now.getTime() - BREAKER_WINDOW_MS);
  const { rows } = (await k.raw(
    `select c.carrier, a.status, a.at
       from unnest(?::text[]) as c(carrier)
       cross join lateral (select status, coalesce(settled_at, created_at) as at from carrier_attempts
                            where carrier = c.carrier and created_at >= ? and status in ('refused', 'delivered', 'failed')
                            order by created_at desc limit ${BREAKER_SAMPLE}) a`,
    [`{${carriers.join(',')}}`, since],
  )) as { rows: Array<{ carrier: string; status: string; at: Date }> };
  const outcomes: CarrierOutcome[] = rows.map((r) => ({ carrier: r.carrier, ok: r.status === 'delivered', at: new Date(r.at) }));
  return carrierHealth(outcomes, now, carriers);
}
