import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../src/db/knex';
import { openOrm } from '../../src/db/orm';
import type { IncidentStatus } from '../../src/domain/incident-lifecycle';
import type { Plan } from '../../src/domain/plans';
import { createService } from '../../src/services/workspace/catalog';
import { createOrganization, createTeam } from '../../src/services/workspace/workspaces';
import { addMember } from './workspace';

/** A workspace on any plan (FREE has no API, so no tokens): its team, service and an admin. */
export interface PlanWorkspace {
  organizationId: string;
  teamId: string;
  serviceId: string;
  admin: { id: string; email: string };
}

const DAY_MS = 86_400_000;
/** An instant `days` before now. */
export const daysAgo = (days: number): Date => new Date(Date.now() - days * DAY_MS);

/**
 * Rows of every kind the retention purge looks at, written straight into the tables with the
 * ages a test needs (nothing in Klaxon writes old rows on purpose).
 */
export class RetentionSeed {
  private number = 0;
  constructor(private readonly orm: MikroORM) {}

  private get db() {
    return knexOf(this.orm);
  }

  async workspace(plan: Plan): Promise<PlanWorkspace> {
    const org = await createOrganization(this.orm, { name: `Retention ${randomUUID().slice(0, 8)}`, plan });
    const admin = await addMember(this.orm, org.id, 'ACCOUNT_ADMIN');
    const team = await createTeam(this.orm, { organizationId: org.id, name: 'Ops' });
    const service = await createService(this.orm, { organizationId: org.id, teamId: team.id, name: 'API' });
    return { organizationId: org.id, teamId: team.id, serviceId: service.id, admin };
  }

  /**
   * An incident in `status`, opened `ageDays` ago (closed `closedDaysAgo` ago when CLOSED), with
   * two alerts, a timeline of two entries, a page, an in-app notification and an outbox row still
   * pending (so the delivered-outbox rule leaves it alone: only the incident's purge takes it).
   */
  async incident(ws: PlanWorkspace, status: IncidentStatus, ageDays: number, closedDaysAgo = ageDays): Promise<string> {
    const id = randomUUID();
    const opened = daysAgo(ageDays);
    const closed = status === 'CLOSED' ? daysAgo(closedDaysAgo) : null;
    await this.db('incidents').insert({
      id,
      organization_id: ws.organizationId,
      number: 10_000 + ++this.number,
      service_id: ws.serviceId,
      owning_team_id: ws.teamId,
      title: `seeded ${status}`,
      severity: 'HIGH',
      status,
      alert_count: 2,
      last_seq: 2,
      created_at: opened,
      closed_at: closed,
      resolved_at: closed,
      updated_at: closed ?? opened,
    });
    const source = randomUUID();
    for (const n of [1, 2]) {
      await this.db('alerts').insert({
        id: randomUUID(),
        organization_id: ws.organizationId,
        source_id: source,
        service_id: ws.serviceId,
        incident_id: id,
        title: `alert ${n}`,
        severity: 'HIGH',
        status: 'RESOLVED',
        sender: 'form-a',
        metadata: '{}',
        created_at: opened,
      });
      await this.db('timeline_entries').insert({
        id: randomUUID(),
        incident_id: id,
        organization_id: ws.organizationId,
        seq: n,
        type: 'created',
        actor_type: 'system',
        message: `entry ${n}`,
        created_at: opened,
      });
    }
    await this.db('notifications').insert({
      id: randomUUID(),
      organization_id: ws.organizationId,
      incident_id: id,
      user_id: ws.admin.id,
      channel: 'email',
      target: ws.admin.email,
      status: 'sent',
      created_at: opened,
      updated_at: opened,
    });
    await this.db('user_notifications').insert({
      id: randomUUID(),
      organization_id: ws.organizationId,
      user_id: ws.admin.id,
      incident_id: id,
      title: 't',
      body: 'b',
      created_at: opened,
    });
    await this.outbox(id, ageDays, null);
    return id;
  }

  /** An outbox message of `incidentId`, created `ageDays` ago and delivered `deliveredDaysAgo` ago (null: pending). */
  async outbox(incidentId: string, ageDays: number, deliveredDaysAgo: number | null): Promise<string> {
    const id = randomUUID();
    await this.db('ingest_outbox').insert({
      id,
      incident_id: incidentId,
      event_id: randomUUID(),
      kind: 'attached',
      created_at: daysAgo(ageDays),
      delivered_at: deliveredDaysAgo === null ? null : daysAgo(deliveredDaysAgo),
    });
    return id;
  }

  /** An idempotency record that expires `expiresInDays` from now (negative: expired). */
  async idempotencyRecord(expiresInDays: number): Promise<string> {
    const key = randomUUID();
    await this.db('idempotency_records').insert({
      source_id: randomUUID(),
      key,
      fingerprint: 'f'.repeat(64),
      event_id: randomUUID(),
      incident_id: randomUUID(),
      created_at: daysAgo(1),
      expires_at: daysAgo(-expiresInDays),
    });
    return key;
  }

  async callback(ageDays: number): Promise<string> {
    const key = `twilio-sms:${randomUUID()}`;
    await this.db('provider_callbacks').insert({ key, received_at: daysAgo(ageDays) });
    return key;
  }

  async devDelivery(ageDays: number): Promise<string> {
    const id = randomUUID();
    await this.db('dev_deliveries').insert({
      id,
      channel: 'email',
      to: 'a@example.test',
      subject: 's',
      body: 'b',
      payload: '{}',
      created_at: daysAgo(ageDays),
    });
    return id;
  }

  /** How many rows of an incident's own each table still holds. */
  async rowsOf(incidentId: string): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of ['alerts', 'timeline_entries', 'notifications', 'user_notifications', 'ingest_outbox']) {
      counts[table] = Number((await this.db(table).where({ incident_id: incidentId }).count({ n: '*' }))[0].n);
    }
    counts.incidents = Number((await this.db('incidents').where({ id: incidentId }).count({ n: '*' }))[0].n);
    return counts;
  }
}

/** What `rowsOf` answers for an incident seeded whole, and for one purged. */
export const SEEDED_ROWS = { alerts: 2, timeline_entries: 2, notifications: 1, user_notifications: 1, ingest_outbox: 1, incidents: 1 };
export const NO_ROWS = { alerts: 0, timeline_entries: 0, notifications: 0, user_notifications: 0, ingest_outbox: 0, incidents: 0 };

/** A retention test file's Postgres (a pool of 2) and seeder, opened before its tests and closed after. */
export function retentionFixture() {
  const held: { orm?: MikroORM; seed?: RetentionSeed } = {};
  beforeAll(async () => {
    held.orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 2);
    held.seed = new RetentionSeed(held.orm);
  });
  afterAll(() => held.orm?.close());
  return {
    get orm(): MikroORM {
      return held.orm!;
    },
    get seed(): RetentionSeed {
      return held.seed!;
    },
  };
}
