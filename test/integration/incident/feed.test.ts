import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { openOrm, type MikroORM } from '../../../src/db/orm';
import { takeFeedEvents, eventBody } from '../../../src/services/incident-feed/feed';
import {
  openIncident,
  recordAlertsAttached,
  recordPageEntry,
  recordPagingDecision,
  recordTransition,
  withdrawIncident,
  type IncidentOpening,
} from '../../../src/services/incident/store';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

/** The incident-event feed: written by the store with each change, taken by consumers in order. */
let orm: MikroORM;
let ws: SeededWorkspace;
let other: SeededWorkspace;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 6);
  [ws, other] = [await seedWorkspace(orm), await seedWorkspace(orm)];
});
afterAll(() => orm.close());

const knex = () => knexOf(orm);
const SYSTEM = { type: 'system' as const, id: null, via: 'ingest' };
const opening = (title = `Disk full ${randomUUID().slice(0, 6)}`, w = ws): IncidentOpening => ({
  id: randomUUID(),
  organizationId: w.organizationId,
  serviceId: w.serviceId,
  owningTeamId: w.teamId,
  title,
  description: null,
  severity: 'HIGH',
  dedupKey: null,
  alertCount: 1,
  actor: SYSTEM,
  openedBy: 'an alert',
});
const open = (o = opening()) => knex().transaction((trx) => openIncident(trx, o));
const eventsOf = (incidentId: string) => knex()('incident_events').where({ incident_id: incidentId }).orderBy('seq');
const take = (consumer: string, limit = 1000) => knex().transaction((trx) => takeFeedEvents(trx, consumer, limit));

describe('incident events written by the store', () => {
  it('when an incident opens, is acknowledged, gets alerts and pages, then each change writes one event, and a retried write none', async () => {
    const row = await open(opening('Checkout is down'));
    const ack = {
      incidentId: row.id,
      seq: 2,
      operation: 'acknowledge' as const,
      from: 'TRIGGERED' as const,
      to: 'ACKNOWLEDGED' as const,
      actor: { type: 'user' as const, id: ws.admin.id, via: 'api' },
      at: new Date().toISOString(),
    };
    await recordTransition(knex(), ack);
    await recordTransition(knex(), ack);
    const attached = {
      incidentId: row.id,
      firstSeq: 3,
      alerts: [
        { title: 'Disk 91%', eventId: randomUUID() },
        { title: 'Disk 95%', eventId: randomUUID() },
      ],
      at: new Date().toISOString(),
    };
    await recordAlertsAttached(knex(), attached);
    await recordAlertsAttached(knex(), attached);
    await recordPagingDecision(knex(), { incidentId: row.id, seq: 5, message: 'step 1', data: { kind: 'step_resolved', step_number: 1, pass_number: 1 } });
    await recordPageEntry(knex(), { incidentId: row.id, seq: 6, channel: 'email', message: 'Emailed', data: { kind: 'page', status: 'sent' } });
    await recordPageEntry(knex(), { incidentId: row.id, seq: 6, channel: 'email', message: 'Emailed', data: { kind: 'page', status: 'sent' } });
    await recordPageEntry(knex(), { incidentId: row.id, seq: 7, channel: 'sms', message: 'SMS failed', data: { kind: 'page', status: 'failed' } });
    await recordPagingDecision(knex(), { incidentId: row.id, seq: 8, message: 'step 2', data: { kind: 'step_resolved', step_number: 2, pass_number: 1 } });

    const events = await eventsOf(row.id);
    expect(events.map((e) => e.type)).toEqual([
      'incident.triggered',
      'incident.acknowledged',
      'incident.alert_attached',
      'page.delivered',
      'page.failed',
      'incident.escalated',
    ]);
    expect(events[1].actor).toEqual({ type: 'user', id: ws.admin.id, name: ws.admin.email });
    expect(events[1].incident).toMatchObject({ id: row.id, status: 'ACKNOWLEDGED' });
    expect(events[2].data).toMatchObject({ count: 2, alerts: [{ title: 'Disk 91%' }, { title: 'Disk 95%' }] });
    expect(events[0].actor).toEqual({ type: 'system', id: null, name: 'ingest' });
  });

  it('when the API takes back an incident it could not start, then its event goes with it', async () => {
    const row = await open();
    expect(await eventsOf(row.id)).toHaveLength(1);
    await knex().transaction((trx) => withdrawIncident(trx, row.id));
    expect(await eventsOf(row.id)).toHaveLength(0);
  });
});

describe('taking the feed', () => {
  it('when a consumer takes events, then it gets them once, oldest first, as the customer API shows the incident; another consumer has its own position', async () => {
    const [one, two] = [await open(), await open()];
    const taken = (await take('test-a')).filter((e) => [one.id, two.id].includes(e.incident_id));
    expect(taken.map((e) => e.incident_id)).toEqual([one.id, two.id]);
    expect(eventBody(taken[0])).toMatchObject({
      type: 'incident.triggered',
      organization_id: ws.organizationId,
      incident: { id: one.id, number: one.number, status: 'TRIGGERED', created_at: expect.stringMatching(/Z$/) },
    });
    expect((await take('test-a')).filter((e) => [one.id, two.id].includes(e.incident_id))).toEqual([]);
    expect((await take('test-b')).filter((e) => [one.id, two.id].includes(e.incident_id)).map((e) => e.incident_id)).toEqual([one.id, two.id]);
  });

  it('when an earlier transaction commits after a later one, then the consumer waits for it and skips neither', async () => {
    await take('test-late');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const opened = new Promise<string>((resolveId) => {
      void knex().transaction(async (trx) => {
        const early = await openIncident(trx, opening('early'));
        resolveId(early.id);
        await held;
      });
    });
    const earlyId = await opened;
    // Another workspace: the early transaction holds its own workspace's numbering.
    const late = await open(opening('late', other));
    // The late one committed, but an older transaction still runs: nothing is taken yet.
    expect((await take('test-late')).filter((e) => [earlyId, late.id].includes(e.incident_id))).toEqual([]);
    release();
    await new Promise((r) => setTimeout(r, 100));
    expect((await take('test-late')).filter((e) => [earlyId, late.id].includes(e.incident_id)).map((e) => e.incident_id)).toEqual([earlyId, late.id]);
  });

  it('when another process holds a consumer’s position, then a second taker gets nothing instead of waiting', async () => {
    await take('test-held', 1);
    await open();
    await knex().transaction(async (trx) => {
      expect((await takeFeedEvents(trx, 'test-held', 1)).length).toBe(1);
      expect(await knex().transaction((other) => takeFeedEvents(other, 'test-held', 1000))).toEqual([]);
    });
  });
});
