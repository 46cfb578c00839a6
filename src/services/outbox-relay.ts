import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { Logger } from '../logger';
import { alertReceivedSignal, type IncidentWorkflowInput } from '../../workflows/definitions';
import { incidentStartOptions } from './incident-workflow';
import { knexOf } from './db';

const DELIVERY_DEADLINE_MS = 10_000;

interface PendingRow {
  id: string;
  event_id: string;
  kind: 'opened' | 'attached' | 'resolved';
  incident_id: string;
  organization_id: string;
  service_id: string | null;
  severity: IncidentWorkflowInput['severity'];
  status: IncidentWorkflowInput['status'];
  last_seq: number;
  title: string;
}

/**
 * Delivers accepted events to their incident workflows with signalWithStart (which also starts
 * the workflow of a new incident), until each lands. At least once: the workflow ignores an
 * event id it has applied. Kicked after every accepted event, and swept on a timer for what a
 * Temporal outage or a crash left behind.
 */
export class OutboxRelay {
  private running = false;
  private again = false;
  private timer?: NodeJS.Timeout;

  constructor(private readonly deps: { orm: MikroORM; temporal: Client; taskQueue: string; logger: Logger; batchSize?: number }) {}

  /** Sweeps every `intervalMs` until stopped. */
  start(intervalMs = 1000): void {
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    while (this.running) await new Promise((r) => setTimeout(r, 20));
  }

  /** Asks for a drain; concurrent kicks fold into one more pass. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.drain()
      .catch((err) => this.deps.logger.warn({ err }, 'outbox relay pass failed; will retry'))
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Delivers pending messages oldest first; stops at the first failure and retries later. */
  private async drain(): Promise<void> {
    for (;;) {
      const rows = (await knexOf(this.deps.orm)('ingest_outbox as o')
        .join('incidents as i', 'i.id', 'o.incident_id')
        .leftJoin('alerts as a', 'a.id', 'o.event_id')
        .select('o.id', 'o.event_id', 'o.kind', 'o.incident_id', 'i.organization_id', 'i.service_id', 'i.severity', 'i.status', 'i.last_seq', knexOf(this.deps.orm).raw('coalesce(a.title, i.title) as title'))
        .whereNull('o.delivered_at')
        .orderBy('o.created_at')
        .limit(this.deps.batchSize ?? 200)) as PendingRow[];
      if (rows.length === 0) return;
      const results = await this.deliverAll(rows);
      const delivered = rows.filter((_, i) => results[i].status === 'fulfilled').map((r) => r.id);
      if (delivered.length) await knexOf(this.deps.orm)('ingest_outbox').whereIn('id', delivered).update({ delivered_at: new Date() });
      const failed = rows.filter((_, i) => results[i].status === 'rejected');
      if (failed.length) {
        const reason = String((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).slice(0, 500);
        await knexOf(this.deps.orm)('ingest_outbox').whereIn('id', failed.map((r) => r.id)).increment('attempts', 1).update({ last_error: reason });
        return; // Temporal is likely away: the timer sweeps again
      }
    }
  }

  /**
   * Incidents in parallel, each incident's messages in order: fifty signals racing into one
   * workflow only contend on its lock. Results line up with `rows`.
   */
  private async deliverAll(rows: PendingRow[]): Promise<PromiseSettledResult<void>[]> {
    const results: PromiseSettledResult<void>[] = new Array(rows.length);
    const byIncident = new Map<string, number[]>();
    rows.forEach((row, i) => byIncident.set(row.incident_id, [...(byIncident.get(row.incident_id) ?? []), i]));
    await Promise.all(
      [...byIncident.values()].map(async (indexes) => {
        for (const i of indexes) {
          results[i] = await this.deliver(rows[i]).then(
            () => ({ status: 'fulfilled', value: undefined }) as const,
            (reason: unknown) => ({ status: 'rejected', reason }) as const,
          );
        }
      }),
    );
    return results;
  }

  private async deliver(row: PendingRow): Promise<void> {
    const input: IncidentWorkflowInput = {
      incidentId: row.incident_id,
      organizationId: row.organization_id,
      serviceId: row.service_id,
      severity: row.severity,
      status: row.status,
      seq: row.last_seq,
    };
    // A deadline, so a call stuck on a half-dead connection cannot wedge the relay.
    await this.deps.temporal.withDeadline(Date.now() + DELIVERY_DEADLINE_MS, () =>
      this.deps.temporal.workflow.signalWithStart('incidentWorkflow', {
        ...incidentStartOptions(this.deps.taskQueue, input),
        signal: alertReceivedSignal,
        signalArgs: [{ eventId: row.event_id, kind: row.kind, title: row.title }],
      }),
    );
  }
}
