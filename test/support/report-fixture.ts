import { newRoutingKey } from '../../src/domain/routing-key';
import { randomBytes, randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../src/db/knex';
import type { IncidentStatus } from '../../src/domain/incident-lifecycle';
import type { Severity } from '../../src/domain/severity';
import { createService } from '../../src/services/workspace/catalog';
import { createTeam } from '../../src/services/workspace/workspaces';

/** One status move on an incident's timeline, `after` seconds from its creation. */
export interface Move {
  to: IncidentStatus;
  after: number;
}

/** A seeded incident: when it opened, where, and what its timeline says happened. */
export interface SeededIncident {
  serviceId: string | null;
  teamId: string;
  createdAt: Date;
  moves?: Move[];
  severity?: Severity;
  title?: string;
}

/**
 * Incidents with known acknowledge and resolve times, pages and alerts, written straight into
 * the tables (as test/support/retention-seed.ts does): reports read only Postgres, and a test
 * needs exact instants no workflow would give it.
 */
export class ReportSeed {
  private number = 0;
  constructor(private readonly orm: MikroORM) {}

  private get db() {
    return knexOf(this.orm);
  }

  async team(organizationId: string, name: string): Promise<string> {
    return (await createTeam(this.orm, { organizationId, name })).id;
  }

  async service(organizationId: string, teamId: string, name: string): Promise<string> {
    return (await createService(this.orm, { organizationId, teamId, name })).id;
  }

  async source(organizationId: string, serviceId: string, name: string): Promise<string> {
    const id = randomUUID();
    await this.db('alert_sources').insert({
      id,
      organization_id: organizationId,
      service_id: serviceId,
      name,
      token_hash: randomBytes(32).toString('hex'),
      routing_key: newRoutingKey(),
      created_at: new Date(),
    });
    return id;
  }

  /** An incident with its `created` entry and one status_change entry per move; its status is the last move's. */
  async incident(organizationId: string, spec: SeededIncident): Promise<{ id: string; number: number }> {
    const id = randomUUID();
    const number = ++this.number;
    const moves = spec.moves ?? [];
    const at = (after: number) => new Date(spec.createdAt.getTime() + after * 1000);
    const status = moves.length ? moves[moves.length - 1].to : 'TRIGGERED';
    const first = (to: IncidentStatus) => moves.find((m) => m.to === to);
    await this.db('incidents').insert({
      id,
      organization_id: organizationId,
      number,
      service_id: spec.serviceId,
      owning_team_id: spec.teamId,
      title: spec.title ?? `Seeded incident ${number}`,
      severity: spec.severity ?? 'HIGH',
      status,
      alert_count: 0,
      last_seq: moves.length + 1,
      created_at: spec.createdAt,
      updated_at: spec.createdAt,
      acknowledged_at: first('ACKNOWLEDGED') ? at(first('ACKNOWLEDGED')!.after) : null,
      resolved_at: first('RESOLVED') ? at(first('RESOLVED')!.after) : null,
    });
    const entry = (seq: number, extra: Record<string, unknown>) => ({
      id: randomUUID(),
      incident_id: id,
      organization_id: organizationId,
      seq,
      actor_type: 'system',
      ...extra,
    });
    await this.db('timeline_entries').insert([
      entry(1, { type: 'created', message: `Incident #${number} opened`, created_at: spec.createdAt }),
      ...moves.map((m, i) =>
        entry(i + 2, {
          type: 'status_change',
          from_status: i === 0 ? 'TRIGGERED' : moves[i - 1].to,
          to_status: m.to,
          message: `moved to ${m.to}`,
          created_at: at(m.after),
        }),
      ),
    ]);
    return { id, number };
  }

  /** A page of an incident to a person, at an instant. */
  async page(organizationId: string, incidentId: string, userId: string, channel: string, at: Date, status = 'sent'): Promise<void> {
    await this.db('notifications').insert({
      id: randomUUID(),
      organization_id: organizationId,
      incident_id: incidentId,
      user_id: userId,
      channel,
      target: 'seeded',
      status,
      created_at: at,
      updated_at: at,
    });
  }

  /** `count` alerts from a source, on an incident, at an instant. */
  async alerts(organizationId: string, sourceId: string, serviceId: string, incidentId: string, count: number, at: Date): Promise<void> {
    const rows = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      organization_id: organizationId,
      source_id: sourceId,
      service_id: serviceId,
      incident_id: incidentId,
      title: `alert ${i}`,
      severity: 'HIGH',
      status: 'RESOLVED',
      sender: 'form-a',
      metadata: '{}',
      created_at: at,
    }));
    await this.db('alerts').insert(rows);
  }

  async setTimeZone(userId: string, zone: string | null): Promise<void> {
    await this.db('users').where({ id: userId }).update({ time_zone: zone });
  }

  async setPlan(organizationId: string, plan: string): Promise<void> {
    await this.db('organizations').where({ id: organizationId }).update({ plan });
  }
}

/** The UTC midnight `days` before today's. */
export const utcMidnightDaysAgo = (days: number): Date => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - days));
};

/** A UTC calendar day `YYYY-MM-DD`, `days` before today. */
export const utcDayDaysAgo = (days: number): string => utcMidnightDaysAgo(days).toISOString().slice(0, 10);

/** A download from the dashboard API as bytes (the JSON client reads bodies as text). */
export async function download(
  appUrl: string,
  session: { cookie: string; csrf: string },
  body: unknown,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(`${appUrl}/api/reports/generate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: `__Host-klaxon_session=${session.cookie}`, 'X-CSRF-Token': session.csrf },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
