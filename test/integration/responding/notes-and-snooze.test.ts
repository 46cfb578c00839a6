import { knexOf } from '../../../src/db/knex';
import { dashboardFixture, expectDashboardError, memberSession } from '../../support/dashboard';
import { request } from '../../support/http';
import { pagingService, responder, trigger } from '../../support/paging';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

// Notes and snoozes (docs/responding.md) through the API, the real incident workflow and Postgres.
const fx = dashboardFixture();
const db = () => knexOf(fx.stack.orm);

async function openIncident() {
  const ws = await seedWorkspace(fx.stack.orm);
  const paged = await responder(fx.stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(fx.stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] }] }, fx.stack.urls.ingest);
  const member = await memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'MEMBER');
  const id = await trigger(ingestUrl, 'Checkout is down');
  await waitFor(async () => (await db()('notifications').where({ incident_id: id }).first()) !== undefined, 20_000, 'the first page');
  return { ws, member, id };
}

const entriesOf = async (id: string, type: string) => db()('timeline_entries').where({ incident_id: id, type }).orderBy('seq');
const eventsOf = async (id: string, type: string) => db()('incident_events').where({ incident_id: id, type }).orderBy('created_at');

describe('notes', () => {
  it('when a member adds a note in the dashboard and a token adds one through API v1, then both are on the timeline with their authors and in the event feed', async () => {
    const { ws, member, id } = await openIncident();
    const text = 'Rolled back **deploy 42**.\nSee https://status.example.test';
    const added = await fx.api('POST', `/incidents/${id}/notes`, { session: member, body: { text } });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ type: 'note', message: text, data: { text } });

    const v1 = await request('POST', `${fx.stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents/${id}/notes`, {
      token: ws.tokens.readWrite,
      body: { text: 'from the API' },
    });
    expect(v1.status).toBe(201);
    expect(v1.body.data).toMatchObject({ type: 'note', message: 'from the API' });

    const shown = await fx.api('GET', `/incidents/${id}`, { session: member });
    const notes = shown.body.data.timeline.filter((e: { type: string }) => e.type === 'note');
    expect(notes).toEqual([
      expect.objectContaining({ message: text, actor: expect.objectContaining({ type: 'user', id: member.userId, email: member.email, via: 'dashboard' }) }),
      expect.objectContaining({ message: 'from the API', actor: expect.objectContaining({ type: 'user', id: ws.admin.id, via: 'api' }) }),
    ]);
    const events = await eventsOf(id, 'incident.note_added');
    expect(events.map((e) => [e.data.text, e.actor.id])).toEqual([
      [text, member.userId],
      ['from the API', ws.admin.id],
    ]);
    expect(events[0].incident).toMatchObject({ id, status: 'TRIGGERED' });
  });

  it('when a note is empty, over 10,000 characters or not text, then it is 400 naming text and nothing is written', async () => {
    const { member, id } = await openIncident();
    expectDashboardError(await fx.api('POST', `/incidents/${id}/notes`, { session: member, body: { text: '   ' } }), 400, 'invalid_request', /text/);
    expectDashboardError(
      await fx.api('POST', `/incidents/${id}/notes`, { session: member, body: { text: 'x'.repeat(10_001) } }),
      400,
      'invalid_request',
      /text/,
    );
    expectDashboardError(await fx.api('POST', `/incidents/${id}/notes`, { session: member, body: {} }), 400, 'invalid_request', /text/);
    expect((await fx.api('POST', `/incidents/${id}/notes`, { session: member, body: { text: 'x'.repeat(10_000) } })).status).toBe(201);
    expect(await entriesOf(id, 'note')).toHaveLength(1);
    expect(await eventsOf(id, 'incident.note_added')).toHaveLength(1);
  });
});

describe('snooze', () => {
  it('when an acknowledged incident is snoozed, then it stays ACKNOWLEDGED with a snooze entry and event, and its workflow holds the snooze', async () => {
    const { member, id } = await openIncident();
    expectDashboardError(
      await fx.api('POST', `/incidents/${id}/snooze`, { session: member, body: { minutes: 30 } }),
      409,
      'invalid_transition',
      /ACKNOWLEDGED/,
    );
    await fx.api('POST', `/incidents/${id}/acknowledge`, { session: member });
    const snoozed = await fx.api('POST', `/incidents/${id}/snooze`, { session: member, body: { minutes: 30 } });
    expect(snoozed.status).toBe(200);
    expect(snoozed.body.data).toMatchObject({ entry: { type: 'snooze', data: { minutes: 30 } }, incident: { id, status: 'ACKNOWLEDGED' } });
    expect(Date.parse(snoozed.body.data.snoozed_until) - Date.parse(snoozed.body.data.entry.at)).toBe(30 * 60_000);

    const [entry] = await entriesOf(id, 'snooze');
    expect(entry).toMatchObject({ actor_id: member.userId, via: 'dashboard', data: { minutes: 30, until: snoozed.body.data.snoozed_until } });
    expect(await eventsOf(id, 'incident.snoozed')).toHaveLength(1);
    expect((await db()('incidents').where({ id }).first()).status).toBe('ACKNOWLEDGED');
  });

  it('when minutes is out of 1–1440 or not whole, then it is 400 naming minutes and nothing is written', async () => {
    const { member, id } = await openIncident();
    await fx.api('POST', `/incidents/${id}/acknowledge`, { session: member });
    for (const minutes of [0, 1441, 2.5, '30']) {
      expectDashboardError(await fx.api('POST', `/incidents/${id}/snooze`, { session: member, body: { minutes } }), 400, 'invalid_request', /minutes/);
    }
    expect(await entriesOf(id, 'snooze')).toHaveLength(0);
  });
});

describe('the OpenAPI documents', () => {
  it('when /api/openapi.json and /api/v1/openapi.json are read, then they describe the responder routes with their bodies’ limits', async () => {
    const dash = (await request('GET', `${fx.stack.urls.app}/api/openapi.json`)).body;
    for (const action of ['notes', 'responders', 'reassign', 'snooze', 'merge']) expect(dash.paths[`/api/incidents/{id}/${action}`]?.post).toBeDefined();
    expect(dash.paths['/api/incidents/bulk']?.post).toBeDefined();
    const v1 = (await request('GET', `${fx.stack.urls.app}/api/v1/openapi.json`)).body;
    const note = v1.paths['/organizations/{organization_id}/incidents/{incident_id}/notes'].post;
    expect(JSON.stringify(note.requestBody)).toContain('"maxLength":10000');
  });
});
