import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { openOrm, type MikroORM } from '../../../src/db/orm';
import { openIncident, recordPageEntry, storeIncidentBatch, type IncidentOpening } from '../../../src/services/incident/store';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

/** The one writer of incidents and timeline entries, driven directly. */
let orm: MikroORM;
let a: SeededWorkspace;
let b: SeededWorkspace;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
  [a, b] = [await seedWorkspace(orm), await seedWorkspace(orm)];
});
afterAll(() => orm.close());

const SYSTEM = { type: 'system' as const, id: null, via: 'ingest' };
const opening = (ws: SeededWorkspace, title: string, over: Partial<IncidentOpening> = {}): IncidentOpening => ({
  id: randomUUID(),
  organizationId: ws.organizationId,
  serviceId: ws.serviceId,
  owningTeamId: ws.teamId,
  title,
  description: null,
  severity: 'HIGH',
  dedupKey: null,
  alertCount: 1,
  actor: SYSTEM,
  openedBy: 'an alert',
  ...over,
});
const knex = () => knexOf(orm);
const entriesOf = (incidentId: string) => knex()('timeline_entries').where({ incident_id: incidentId }).orderBy('seq');

describe('incident store', () => {
  it('when one batch opens incidents in two workspaces, then each workspace numbers its own in the order given', async () => {
    const firstOfA = await knex().transaction((trx) => openIncident(trx, opening(a, 'first of a')));
    const batch = [opening(a, 'a1'), opening(b, 'b1'), opening(a, 'a2'), opening(b, 'b2'), opening(a, 'a3')];
    const rows = await knex().transaction((trx) => storeIncidentBatch(trx, { opened: batch, alertsAdded: [] }));
    const numberOf = new Map(rows.map((r) => [r.title, r.number]));
    expect([numberOf.get('a1'), numberOf.get('a2'), numberOf.get('a3')]).toEqual([firstOfA.number + 1, firstOfA.number + 2, firstOfA.number + 3]);
    expect(numberOf.get('b2')).toBe(numberOf.get('b1')! + 1);
    const org = await knex()('organizations').where({ id: a.organizationId }).first();
    expect(org.incident_seq).toBe(firstOfA.number + 3);
    expect(rows.every((r) => r.status === 'TRIGGERED')).toBe(true);
  });

  it('when an incident is opened, then its created entry says who opened it and its seq is 1', async () => {
    const byAlert = await knex().transaction((trx) => openIncident(trx, opening(a, 'Disk full')));
    const byPerson = await knex().transaction((trx) =>
      openIncident(trx, opening(a, 'Checkout down', { actor: { type: 'user', id: a.admin.id, via: 'api' }, openedBy: null, dedupKey: null, alertCount: 0 })),
    );
    const [alertEntry] = await entriesOf(byAlert.id);
    const [personEntry] = await entriesOf(byPerson.id);
    expect(alertEntry).toMatchObject({
      seq: 1,
      type: 'created',
      to_status: 'TRIGGERED',
      actor_type: 'system',
      via: 'ingest',
      message: `Incident #${byAlert.number} opened by an alert: Disk full`,
    });
    expect(personEntry).toMatchObject({
      seq: 1,
      type: 'created',
      actor_type: 'user',
      actor_id: a.admin.id,
      via: 'api',
      message: `Incident #${byPerson.number} opened: Checkout down`,
    });
  });

  it('when alerts are added to an open incident, then its alert count grows and nothing else opens', async () => {
    const row = await knex().transaction((trx) => openIncident(trx, opening(b, 'flapping', { dedupKey: 'k' })));
    const before = (await knex()('organizations').where({ id: b.organizationId }).first()).incident_seq;
    const opened = await knex().transaction((trx) => storeIncidentBatch(trx, { opened: [], alertsAdded: [{ incidentId: row.id, count: 3 }] }));
    expect(opened).toEqual([]);
    expect((await knex()('incidents').where({ id: row.id }).first()).alert_count).toBe(4);
    expect((await knex()('organizations').where({ id: b.organizationId }).first()).incident_seq).toBe(before);
  });

  it('when a page entry is recorded twice at one seq, then the timeline has it once and last_seq only grows', async () => {
    const row = await knex().transaction((trx) => openIncident(trx, opening(a, 'paged')));
    await recordPageEntry(knex(), { incidentId: row.id, seq: 5, channel: 'sms', message: 'SMS to +14155550100 sent' });
    await recordPageEntry(knex(), { incidentId: row.id, seq: 5, channel: 'sms', message: 'SMS to +14155550100 sent' });
    await recordPageEntry(knex(), { incidentId: row.id, seq: 3, channel: 'email', message: 'Email to a@example.test sent' });
    const entries = await entriesOf(row.id);
    expect(entries.map((e) => [e.seq, e.type, e.via])).toEqual([
      [1, 'created', 'ingest'],
      [3, 'notification', 'email'],
      [5, 'notification', 'sms'],
    ]);
    expect((await knex()('incidents').where({ id: row.id }).first()).last_seq).toBe(5);
  });
});
