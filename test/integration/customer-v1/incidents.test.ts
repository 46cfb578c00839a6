import { incidentWorkflowId, incidentStateQuery } from '../../../src/contracts/workflows';
import { knexOf } from '../../../src/db/knex';
import { request } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';
import { waitFor } from '../../support/wait';

let stack: TestStack;
let ws: SeededWorkspace;
let base: string;

beforeAll(async () => {
  stack = await startTestStack();
  ws = await seedWorkspace(stack.orm);
  base = `${stack.urls.app}/api/v1/organizations/${ws.organizationId}`;
});
afterAll(() => stack.stop());

const create = (body: unknown, token = ws.tokens.readWrite) => request('POST', `${base}/incidents`, { token, body });
const validBody = (over: Record<string, unknown> = {}) => ({ title: 'Checkout latency above 2s', severity: 'HIGH', owning_team_id: ws.teamId, ...over });
const op = (id: string, operation: string, token = ws.tokens.readWrite) => request('POST', `${base}/incidents/${id}/${operation}`, { token });
/** The timeline without paging decisions: whether a TRIGGERED spell got as far as one before the next move is a race. */
const movesOf = async (id: string) =>
  (await knexOf(stack.orm)('timeline_entries').where({ incident_id: id }).orderBy('seq')).filter((t) => t.type !== 'paging_decision');

describe('POST /incidents', () => {
  it('when the body is valid, then 201 with the incident, a per-workspace number and a running workflow', async () => {
    const first = await create(validBody({ description: 'p99 over SLO', severity: 'low' }));
    expect(first.status).toBe(201);
    const inc = first.body.data;
    expect(inc).toMatchObject({
      title: 'Checkout latency above 2s',
      description: 'p99 over SLO',
      severity: 'LOW',
      status: 'TRIGGERED',
      owning_team_id: ws.teamId,
      service_id: null,
      dedup_key: null,
      alert_count: 0,
      acknowledged_at: null,
      resolved_at: null,
      closed_at: null,
    });
    expect(inc.links.temporal_ui).toBe(`http://temporal-ui.test:8233/namespaces/default/workflows/incident-${inc.id}`);
    expect(Date.parse(inc.created_at)).not.toBeNaN();
    const second = await create(validBody());
    expect(second.body.data.number).toBe(inc.number + 1);

    const handle = stack.temporal.workflow.getHandle(incidentWorkflowId(inc.id));
    const description = await handle.describe();
    expect(description.status.name).toBe('RUNNING');
    expect(description.taskQueue).toBe(stack.taskQueue);
    // seq 2: the escalation's decision (the team has nobody to page, docs/architecture.md, "Incidents").
    await waitFor(async () => (await handle.query(incidentStateQuery)).seq === 2, 15_000, 'the paging decision');
    expect(await handle.query(incidentStateQuery)).toEqual({ status: 'TRIGGERED', seq: 2 });
  });

  it.each([
    ['title missing', { severity: 'HIGH' }, /title/],
    ['title empty', { title: '   ', severity: 'HIGH' }, /title/],
    ['title over 255 characters', { title: 'x'.repeat(256), severity: 'HIGH' }, /title/],
    ['severity missing', { title: 't' }, /severity/],
    ['severity unknown', { title: 't', severity: 'URGENT' }, /severity must be one of CRITICAL, HIGH, MEDIUM, LOW, INFO/],
    ['owning_team_id not a UUID', { title: 't', severity: 'HIGH', owning_team_id: 'ops' }, /owning_team_id/],
  ])('when %s, then 400 with a message and nothing is created', async (_name, body, message) => {
    const before = await countIncidents();
    const withTeam = 'owning_team_id' in body ? body : { ...body, owning_team_id: ws.teamId };
    const res = await create(withTeam);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(await countIncidents()).toBe(before);
  });

  it('when owning_team_id is missing, then 400 names it', async () => {
    const res = await create({ title: 't', severity: 'HIGH' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/owning_team_id/);
  });

  it('when the team belongs to another workspace, then 400 and nothing is created', async () => {
    const other = await seedWorkspace(stack.orm);
    const before = await countIncidents();
    const res = await create(validBody({ owning_team_id: other.teamId }));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/not a team of this workspace/);
    expect(await countIncidents()).toBe(before);
  });

  it('when the body is not JSON, then 415; when it is malformed JSON, then 400', async () => {
    const text = await request('POST', `${base}/incidents`, { token: ws.tokens.readWrite, rawBody: 'title=x', headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.message).toMatch(/JSON/);
    const broken = await request('POST', `${base}/incidents`, {
      token: ws.tokens.readWrite,
      rawBody: '{"title":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(typeof broken.body.message).toBe('string');
  });
});

describe('GET /incidents/{id}', () => {
  it('when the incident exists, then 200 with the same fields as at creation, and its alerts (none for one opened through the API)', async () => {
    const created = (await create(validBody())).body.data;
    const res = await request('GET', `${base}/incidents/${created.id}`, { token: ws.tokens.readOnly });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...created, alerts: [] });
  });

  it('when the id is unknown or malformed, then 404', async () => {
    expect((await request('GET', `${base}/incidents/6b1f7a4e-0000-4000-8000-000000000000`, { token: ws.tokens.readOnly })).status).toBe(404);
    const malformed = await request('GET', `${base}/incidents/not-a-uuid`, { token: ws.tokens.readOnly });
    expect(malformed.status).toBe(404);
    expect(malformed.body.message).toMatch(/not found/);
  });
});

describe('lifecycle', () => {
  it('when an incident goes through every operation, then each answer is the new state and the timeline records who did it', async () => {
    const inc = (await create(validBody())).body.data;
    const steps: Array<[string, number, string | undefined]> = [
      ['acknowledge', 200, 'ACKNOWLEDGED'],
      ['acknowledge', 200, 'ACKNOWLEDGED'], // repeat: no-op, still 200
      ['close', 409, undefined],
      ['investigate', 200, 'INVESTIGATING'],
      ['acknowledge', 409, undefined],
      ['resolve', 200, 'RESOLVED'],
      ['close', 200, 'CLOSED'],
      ['close', 200, 'CLOSED'], // repeat on a completed workflow
      ['resolve', 409, undefined],
      ['reopen', 200, 'TRIGGERED'],
      ['resolve', 200, 'RESOLVED'],
    ];
    for (const [operation, status, expected] of steps) {
      const res = await op(inc.id, operation);
      expect({ operation, status: res.status }).toEqual({ operation, status });
      if (expected) expect(res.body.data.status).toBe(expected);
      else {
        expect(res.body.code).toBe('invalid_transition');
        expect(res.body.message).toMatch(/ACKNOWLEDGED|INVESTIGATING|CLOSED/);
      }
    }
    const final = (await request('GET', `${base}/incidents/${inc.id}`, { token: ws.tokens.readOnly })).body.data;
    expect(final.status).toBe('RESOLVED');
    expect(final.resolved_at).not.toBeNull();
    expect(final.closed_at).toBeNull(); // cleared by reopen
    expect(final.acknowledged_at).toBeNull();

    const timeline = await movesOf(inc.id);
    expect(timeline.map((t) => [t.type, t.to_status])).toEqual([
      ['created', 'TRIGGERED'],
      ['status_change', 'ACKNOWLEDGED'],
      ['status_change', 'INVESTIGATING'],
      ['status_change', 'RESOLVED'],
      ['status_change', 'CLOSED'],
      ['status_change', 'TRIGGERED'],
      ['status_change', 'RESOLVED'],
    ]);
    expect(timeline.map((t) => t.seq)).toEqual([...timeline.map((t) => t.seq)].sort((a, b) => a - b));
    for (const t of timeline) {
      expect({ actor_type: t.actor_type, actor_id: t.actor_id, via: t.via }).toEqual({ actor_type: 'user', actor_id: ws.admin.id, via: 'api' });
    }
  });

  it('when an incident is acknowledged, then the workflow search attributes carry the new status', async () => {
    const inc = (await create(validBody({ severity: 'critical' }))).body.data;
    await op(inc.id, 'acknowledge');
    const d = await stack.temporal.workflow.getHandle(incidentWorkflowId(inc.id)).describe();
    const pairs = d.typedSearchAttributes
      .getAll()
      .filter((p) => p.key.name.startsWith('Klaxon'))
      .map((p) => [p.key.name, p.value]);
    expect(pairs.sort()).toEqual(
      [
        ['KlaxonIncidentStatus', 'ACKNOWLEDGED'],
        ['KlaxonOrganizationId', ws.organizationId],
        ['KlaxonServiceId', ''],
        ['KlaxonSeverity', 'CRITICAL'],
      ].sort(),
    );
  });

  it('when an incident is closed, then its workflow completes, and reopen starts a new run', async () => {
    const inc = (await create(validBody())).body.data;
    await op(inc.id, 'resolve');
    await op(inc.id, 'close');
    const handle = stack.temporal.workflow.getHandle(incidentWorkflowId(inc.id));
    await handle.result();
    const closedRun = (await handle.describe()).runId;
    const reopened = await op(inc.id, 'reopen');
    expect(reopened.status).toBe(200);
    expect(reopened.body.data.status).toBe('TRIGGERED');
    const latest = stack.temporal.workflow.getHandle(incidentWorkflowId(inc.id));
    const d = await latest.describe();
    expect(d.runId).not.toBe(closedRun);
    expect(d.status.name).toBe('RUNNING');
    // Seeded from the projection: created, resolve, close, reopen, and any paging decision between them.
    const state = await latest.query(incidentStateQuery);
    expect(state.status).toBe('TRIGGERED');
    expect(state.seq).toBeGreaterThanOrEqual(4);
    // A paging decision's seq is reserved before its entry lands: the projection catches up.
    await waitFor(
      async () => (await latest.query(incidentStateQuery)).seq === (await knexOf(stack.orm)('incidents').where({ id: inc.id }).first()).last_seq,
      15_000,
      'the projection to hold the workflow seq',
    );
  });

  it('when two operations race on one incident, then they apply one after the other with no gap in the timeline', async () => {
    const incidents = await Promise.all(Array.from({ length: 6 }, () => create(validBody()).then((r) => r.body.data)));
    await Promise.all(
      incidents.map(async (inc) => {
        const [ack, resolve] = await Promise.all([op(inc.id, 'acknowledge'), op(inc.id, 'resolve')]);
        // Either order ends RESOLVED: acknowledge→resolve gives 200/200, resolve→acknowledge gives 409 for the ack.
        expect(resolve.status).toBe(200);
        expect([200, 409]).toContain(ack.status);
        const final = (await request('GET', `${base}/incidents/${inc.id}`, { token: ws.tokens.readOnly })).body.data;
        expect(final.status).toBe('RESOLVED');
        const timeline = await knexOf(stack.orm)('timeline_entries').where({ incident_id: inc.id }).orderBy('seq');
        expect((await movesOf(inc.id)).map((t) => t.to_status)).toEqual(
          ack.status === 200 ? ['TRIGGERED', 'ACKNOWLEDGED', 'RESOLVED'] : ['TRIGGERED', 'RESOLVED'],
        );
        expect(timeline.map((t) => t.seq)).toEqual(timeline.map((_t, i) => i + 1));
      }),
    );
  });

  it('when the workflow is gone while the incident is open, then the next operation starts a fresh run from the projection', async () => {
    const inc = (await create(validBody())).body.data;
    await op(inc.id, 'acknowledge');
    await stack.temporal.workflow.getHandle(incidentWorkflowId(inc.id)).terminate('test: lost workflow');
    const res = await op(inc.id, 'resolve');
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('RESOLVED');
    const handle = stack.temporal.workflow.getHandle(incidentWorkflowId(inc.id));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    // created, acknowledge, resolve, and the paging decision if it came before the acknowledge.
    expect((await movesOf(inc.id)).map((t) => t.to_status)).toEqual(['TRIGGERED', 'ACKNOWLEDGED', 'RESOLVED']);
    const entries = await knexOf(stack.orm)('timeline_entries').where({ incident_id: inc.id });
    expect(await handle.query(incidentStateQuery)).toEqual({ status: 'RESOLVED', seq: entries.length });
  });

  it('when the incident id is unknown, then lifecycle calls answer 404', async () => {
    const res = await op('6b1f7a4e-0000-4000-8000-000000000001', 'acknowledge');
    expect(res.status).toBe(404);
  });
});

describe('GET /incidents', () => {
  let listWs: SeededWorkspace;
  let listBase: string;
  const ids: string[] = [];

  beforeAll(async () => {
    listWs = await seedWorkspace(stack.orm);
    listBase = `${stack.urls.app}/api/v1/organizations/${listWs.organizationId}`;
    const severities = ['CRITICAL', 'LOW', 'LOW'];
    for (let i = 0; i < 30; i++) {
      const res = await request('POST', `${listBase}/incidents`, {
        token: listWs.tokens.readWrite,
        body: { title: `incident ${i}`, severity: severities[i % 3], owning_team_id: listWs.teamId },
      });
      ids.push(res.body.data.id);
    }
    await request('POST', `${listBase}/incidents/${ids[0]}/acknowledge`, { token: listWs.tokens.readWrite });
  });

  const list = (query: string) => request('GET', `${listBase}/incidents${query}`, { token: listWs.tokens.readOnly });
  const idsOf = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((i) => i.id);

  it('when no limit is given, then 25 newest first and a cursor to the rest', async () => {
    const page = await list('');
    expect(page.status).toBe(200);
    expect(idsOf(page)).toEqual([...ids].reverse().slice(0, 25));
    expect(page.body.meta.next_cursor).toEqual(expect.any(String));
    const rest = await list(`?cursor=${encodeURIComponent(page.body.meta.next_cursor)}`);
    expect(idsOf(rest)).toEqual([...ids].reverse().slice(25));
    expect(rest.body.meta.next_cursor).toBeNull();
  });

  it('when paging with a small limit, then every incident appears exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Awaited<ReturnType<typeof list>> = await list(`?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.body.data.length).toBeLessThanOrEqual(7);
      seen.push(...idsOf(res));
      cursor = res.body.meta.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('when filtering by status, severity and service, then only matching incidents come back', async () => {
    expect(idsOf(await list('?status=acknowledged'))).toEqual([ids[0]]);
    const critical = await list('?severity=CRITICAL&limit=100');
    expect(critical.body.data).toHaveLength(10);
    expect(critical.body.data.every((i: { severity: string }) => i.severity === 'CRITICAL')).toBe(true);
    await knexOf(stack.orm)('incidents').update({ service_id: listWs.serviceId }).where({ id: ids[5] });
    expect(idsOf(await list(`?service_id=${listWs.serviceId}`))).toEqual([ids[5]]);
    expect(idsOf(await list(`?status=ACKNOWLEDGED&severity=LOW`))).toEqual([]);
  });

  it.each([
    ['?limit=101', /limit must be at most 100/],
    ['?limit=0', /limit must be at least 1/],
    ['?limit=ten', /limit/],
    ['?status=SLEEPING', /status must be one of/],
    ['?severity=URGENT', /severity must be one of/],
    ['?service_id=nope', /service_id must be a UUID/],
    ['?cursor=garbage', /cursor/],
  ])('when the query is %s, then 400 with a message', async (query, message) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it("when listing, then another workspace's incidents never appear", async () => {
    const page = await list('?limit=100');
    expect(page.body.data).toHaveLength(30);
    expect(page.body.data.every((i: { owning_team_id: string }) => i.owning_team_id === listWs.teamId)).toBe(true);
  });
});

async function countIncidents(): Promise<number> {
  const [{ count }] = await knexOf(stack.orm)('incidents').where({ organization_id: ws.organizationId }).count({ count: '*' });
  return Number(count);
}
