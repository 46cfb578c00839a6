import { PgProbe } from '../harness/pg-probe';

/** One incident a paging phase opened, through its first alert. */
export interface OpenedIncident {
  id: string;
  number: number;
  title: string;
}

/** One page the workflows recorded: when its row was written, at which step, and what became of it. */
export interface PageRow {
  incidentId: string;
  step: number;
  channel: string;
  status: string;
  fallbackReason: string | null;
  createdAt: number;
}

/** The paging phases' queries. */
export class PagingProbe extends PgProbe {
  /** The incidents the source's alerts opened (titles are unique per event in these phases). */
  async incidents(sourceId: string): Promise<OpenedIncident[]> {
    const { rows } = await this.db.query<{ id: string; number: number; title: string }>(
      'select distinct i.id, i.number, a.title from alerts a join incidents i on i.id = a.incident_id where a.source_id = $1',
      [sourceId],
    );
    return rows;
  }

  /** The ids of the incidents the source's alerts went to (any number of alerts each). */
  async incidentIds(sourceId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ incident_id: string }>('select distinct incident_id from alerts where source_id = $1', [sourceId]);
    return rows.map((r) => r.incident_id);
  }

  /** Every page recorded for the source's incidents. */
  async pages(sourceId: string): Promise<PageRow[]> {
    const { rows } = await this.db.query<{
      incident_id: string;
      escalation_step: number;
      channel: string;
      status: string;
      fallback_reason: string | null;
      created_at: Date;
    }>(
      `select n.incident_id, n.escalation_step, n.channel, n.status, n.fallback_reason, n.created_at
         from notifications n where n.incident_id in (select incident_id from alerts where source_id = $1)`,
      [sourceId],
    );
    return rows.map((r) => ({
      incidentId: r.incident_id,
      step: r.escalation_step,
      channel: r.channel,
      status: r.status,
      fallbackReason: r.fallback_reason,
      createdAt: r.created_at.getTime(),
    }));
  }
}

/** Pages that did not go out as an SMS (quota fallback, failure), by channel and status, for the report. */
export function pagesOffSms(pages: PageRow[]): Record<string, number> {
  const off: Record<string, number> = {};
  for (const p of pages) {
    if (p.channel === 'sms' && p.status === 'sent') continue;
    const key = `${p.channel} ${p.status}${p.fallbackReason ? ' (fallback)' : ''}`;
    off[key] = (off[key] ?? 0) + 1;
  }
  return off;
}
