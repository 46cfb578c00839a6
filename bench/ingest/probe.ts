import { PgProbe } from '../harness/pg-probe';
import { waitFor } from '../harness/wait';

const ms = (t: Date | null) => (t ? t.getTime() : NaN);

/** What ingestion left in Postgres, as the ingestion phases read it. */
export class IngestProbe extends PgProbe {
  /** Outbox messages not yet handed to Temporal, all sources together. */
  async undelivered(): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>('select count(*)::int as n from ingest_outbox where delivered_at is null');
    return rows[0].n;
  }

  /** Waits until every outbox message has been delivered; `left` > 0 when it stalled. */
  async drainOutbox(onSlow?: (left: number) => void): Promise<{ ms: number; left: number; complete: boolean }> {
    const w = await waitFor(
      () => this.undelivered(),
      (n) => n === 0,
      (n) => n,
      onSlow,
    );
    return { ms: w.ms, left: w.value, complete: w.complete };
  }

  /** Alerts a source stored and incidents its service holds (each opened by one of those alerts). */
  async stored(sourceId: string, serviceId: string): Promise<{ alerts: number; incidents: number }> {
    const { rows } = await this.db.query<{ alerts: number; incidents: number }>(
      'select (select count(*)::int from alerts where source_id = $1) as alerts, (select count(*)::int from incidents where service_id = $2) as incidents',
      [sourceId, serviceId],
    );
    return rows[0];
  }

  /** `alert_attached` timeline entries the service's incident workflows have written, and the latest one's time. */
  async attached(serviceId: string): Promise<{ n: number; lastAt: number }> {
    const { rows } = await this.db.query<{ n: number; last: Date | null }>(
      `select count(*)::int as n, max(t.created_at) as last from timeline_entries t join incidents i on i.id = t.incident_id
        where i.service_id = $1 and t.type = 'alert_attached'`,
      [serviceId],
    );
    return { n: rows[0].n, lastAt: ms(rows[0].last) };
  }

  /** The source's alerts whose own timeline entry (matched by their unique title) exists. */
  async attachedByTitle(sourceId: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      `select count(*)::int as n from alerts a join timeline_entries t
          on t.incident_id = a.incident_id and t.type = 'alert_attached' and t.message = 'Alert attached: ' || a.title
        where a.source_id = $1`,
      [sourceId],
    );
    return rows[0].n;
  }

  /** The service's outbox messages, how many were delivered, and the last delivery's time. */
  async delivered(serviceId: string): Promise<{ total: number; delivered: number; lastAt: number }> {
    const { rows } = await this.db.query<{ total: number; delivered: number; last: Date | null }>(
      `select count(*)::int as total, count(o.delivered_at)::int as delivered, max(o.delivered_at) as last
         from ingest_outbox o join incidents i on i.id = o.incident_id where i.service_id = $1`,
      [serviceId],
    );
    return { total: rows[0].total, delivered: rows[0].delivered, lastAt: ms(rows[0].last) };
  }

  /** Each `alert_attached` entry of the service's incidents: message → time the workflow applied it. */
  async attachedEntries(serviceId: string): Promise<Map<string, number>> {
    const { rows } = await this.db.query<{ message: string; created_at: Date }>(
      `select t.message, t.created_at from timeline_entries t join incidents i on i.id = t.incident_id
        where i.service_id = $1 and t.type = 'alert_attached'`,
      [serviceId],
    );
    return new Map(rows.map((r) => [r.message, r.created_at.getTime()]));
  }

  /** Each of the source's alerts, by title: when the relay stamped its outbox message delivered (NaN if not yet). */
  async deliveredAtByTitle(sourceId: string): Promise<Map<string, number>> {
    const { rows } = await this.db.query<{ title: string; delivered_at: Date | null }>(
      'select a.title, o.delivered_at from alerts a join ingest_outbox o on o.event_id = a.id where a.source_id = $1',
      [sourceId],
    );
    return new Map(rows.map((r) => [r.title, ms(r.delivered_at)]));
  }
}
