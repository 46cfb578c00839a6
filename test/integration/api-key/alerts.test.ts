import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { revokeApiKey } from '../../../src/services/workspace/api-keys';
import { request } from '../../support/http';
import { apiKeyFor, expectEnvelopeError } from '../../support/api-key';
import { notificationsOf, pagingService, responder, statusOf, timelineOf, trigger } from '../../support/paging';
import { startTestStack, type TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

let stack: TestStack;
let ws: SeededWorkspace;
let adminKey: string;
const v1 = (path: string) => `${stack.urls.apiKey}/v1${path}`;
const incidentUrl = (w: SeededWorkspace, incidentId: string) => `${stack.urls.app}/api/v1/organizations/${w.organizationId}/incidents/${incidentId}`;

beforeAll(async () => {
  stack = await startTestStack();
  ws = await seedWorkspace(stack.orm);
  adminKey = (await apiKeyFor(stack.orm, ws.organizationId, ws.admin)).key;
});
afterAll(() => stack.stop());

interface Hook {
  id: string;
  receiver_url: string;
}

/** An unsigned webhook paging email, made through the API-key surface. */
async function webhook(key = adminKey, name = `hook ${randomUUID().slice(0, 6)}`): Promise<Hook> {
  const res = await request('POST', v1('/webhooks'), { token: key, body: { name, channels: ['email'], signed: false } });
  expect(res.status).toBe(201);
  return res.body.data;
}

/** Posts a Form B event to the webhook; answers its alert (event) and incident ids. */
async function fire(hook: Hook, body: Record<string, unknown>): Promise<{ alertId: string; incidentId: string }> {
  const res = await request('POST', hook.receiver_url, { body });
  expect(res.status).toBe(202);
  return { alertId: res.body.data.event_id, incidentId: res.body.data.incident_id };
}

/** Waits until the incident's workflow has every alert event of it (the outbox delivered them all). */
async function applied(incidentId: string): Promise<void> {
  await waitFor(
    async () => (await knexOf(stack.orm)('ingest_outbox').where({ incident_id: incidentId }).whereNull('delivered_at').first('id')) === undefined,
    30_000,
    `the workflow of incident ${incidentId} to take its alerts`,
  );
}

const alertRow = (id: string) => knexOf(stack.orm)('alerts').select('status', 'resolved_at').where({ id }).first();
const getAlert = (id: string, key = adminKey) => request('GET', v1(`/alerts/${id}`), { token: key });
const post = (id: string, op: 'acknowledge' | 'resolve', key = adminKey) => request('POST', v1(`/alerts/${id}/${op}`), { token: key });

describe('the OpenAPI document', () => {
  it('when fetched, then it describes the four alert operations with the Alert schema', async () => {
    const res = await request('GET', v1('/openapi.json'));
    expect(res.status).toBe(200);
    const paths = res.body.paths;
    expect(Object.keys(paths['/v1/alerts'])).toEqual(['get']);
    expect(paths['/v1/alerts'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['incident_id', 'limit', 'offset', 'severity', 'status']);
    expect([
      paths['/v1/alerts/{id}'].get.operationId,
      paths['/v1/alerts/{id}/acknowledge'].post.operationId,
      paths['/v1/alerts/{id}/resolve'].post.operationId,
    ]).toEqual(['getAlert', 'acknowledgeAlert', 'resolveAlert']);
    expect(Object.keys(res.body.components.schemas.Alert.properties)).toEqual([
      'id',
      'title',
      'message',
      'severity',
      'status',
      'source',
      'tags',
      'url',
      'webhook_id',
      'incident_id',
      'created_at',
      'acknowledged_at',
      'resolved_at',
    ]);
  });
});

describe('GET /v1/alerts/{id}', () => {
  it('when an alert is read, then every field shows, its tags and url kept, severity lower case', async () => {
    const hook = await webhook();
    const { alertId, incidentId } = await fire(hook, {
      title: 'CPU high on db-1',
      message: 'CPU above 90% for 5 minutes',
      severity: 'critical',
      source: 'grafana',
      tags: { env: 'prod', region: 'eu-west-1' },
      url: 'https://grafana.example.test/d/cpu',
    });
    const res = await getAlert(alertId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: expect.any(String) });
    expect(res.body.data).toEqual({
      id: alertId,
      title: 'CPU high on db-1',
      message: 'CPU above 90% for 5 minutes',
      severity: 'critical',
      status: 'active',
      source: 'grafana',
      tags: { env: 'prod', region: 'eu-west-1' },
      url: 'https://grafana.example.test/d/cpu',
      webhook_id: hook.id,
      incident_id: incidentId,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      acknowledged_at: null,
      resolved_at: null,
    });
  });

  it('when an alert has no tags, url or source, then tags is {} and the others null; a warning is medium', async () => {
    const { alertId } = await fire(await webhook(), { title: 'bare', severity: 'warning' });
    expect((await getAlert(alertId)).body.data).toMatchObject({ message: null, severity: 'medium', source: null, tags: {}, url: null });
  });

  it('when its webhook is deleted, then the alert stays readable and loses its webhook_id', async () => {
    const hook = await webhook();
    const { alertId } = await fire(hook, { title: 'before the delete' });
    expect((await getAlert(alertId)).body.data.webhook_id).toBe(hook.id);
    expect((await request('DELETE', v1(`/webhooks/${hook.id}`), { token: adminKey })).status).toBe(200);
    const after = await getAlert(alertId);
    expect(after.status).toBe(200);
    expect(after.body.data.webhook_id).toBeNull();
  });

  it('when the alert is another workspace’s, unknown or no UUID, then 404 not_found, and acknowledge and resolve change nothing', async () => {
    const other = await seedWorkspace(stack.orm);
    const otherKey = (await apiKeyFor(stack.orm, other.organizationId, other.admin)).key;
    const { alertId, incidentId } = await fire(await webhook(otherKey), { title: 'theirs', severity: 'critical' });
    await applied(incidentId);
    for (const id of [alertId, randomUUID(), 'not-a-uuid']) {
      const read = await getAlert(id);
      expect({ id, status: read.status }).toEqual({ id, status: 404 });
      expectEnvelopeError(read.body, 'not_found');
      for (const op of ['acknowledge', 'resolve'] as const) {
        const moved = await post(id, op);
        expect({ id, op, status: moved.status }).toEqual({ id, op, status: 404 });
        expectEnvelopeError(moved.body, 'not_found');
      }
    }
    expect(await alertRow(alertId)).toEqual({ status: 'ACTIVE', resolved_at: null });
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    // Its own workspace still reads it.
    expect((await getAlert(alertId, otherKey)).status).toBe(200);
  });

  it('when the API key is missing, wrong or revoked, then 401 on every alert route', async () => {
    const { alertId } = await fire(await webhook(), { title: 'guarded' });
    const revoked = await apiKeyFor(stack.orm, ws.organizationId, 'MEMBER');
    expect((await getAlert(alertId, revoked.key)).status).toBe(200);
    await revokeApiKey(stack.orm, revoked.id);
    for (const token of [undefined, revoked.key, 'klxk_not_a_real_key', ws.tokens.readWrite]) {
      for (const [method, path] of [
        ['GET', '/alerts'],
        ['GET', `/alerts/${alertId}`],
        ['POST', `/alerts/${alertId}/acknowledge`],
        ['POST', `/alerts/${alertId}/resolve`],
      ]) {
        const res = await request(method, v1(path), { token });
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
        expectEnvelopeError(res.body, 'unauthorized');
      }
    }
    expect(await alertRow(alertId)).toEqual({ status: 'ACTIVE', resolved_at: null });
  });
});

describe('GET /v1/alerts', () => {
  // Its own workspace, so totals are exactly what this block made.
  let list: SeededWorkspace;
  let key: string;
  const alerts: Record<'critical' | 'warning' | 'info', string> = { critical: '', warning: '', info: '' };
  const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((a) => a.id);
  const get = (query: string) => request('GET', v1(`/alerts${query}`), { token: key });

  beforeAll(async () => {
    list = await seedWorkspace(stack.orm);
    key = (await apiKeyFor(stack.orm, list.organizationId, list.admin)).key;
    const hook = await webhook(key);
    // One incident each (no dedup_key), oldest first: critical, then warning, then info.
    for (const severity of ['critical', 'warning', 'info'] as const) {
      const fired = await fire(hook, { title: `${severity} alert`, severity });
      await applied(fired.incidentId);
      alerts[severity] = fired.alertId;
    }
    expect((await post(alerts.critical, 'acknowledge', key)).status).toBe(200);
    expect((await post(alerts.info, 'resolve', key)).status).toBe(200);
  });

  it('when listed without filters, then newest first with meta {total, limit 50, offset 0}', async () => {
    const res = await get('');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, meta: { total: 3, limit: 50, offset: 0 } });
    expect(ids(res)).toEqual([alerts.info, alerts.warning, alerts.critical]);
    expect(res.body.data.map((a: { status: string }) => a.status)).toEqual(['resolved', 'active', 'acknowledged']);
  });

  it('when filtered by status, then only alerts of that status, and total counts them', async () => {
    for (const [status, expected] of [
      ['active', [alerts.warning]],
      ['acknowledged', [alerts.critical]],
      ['resolved', [alerts.info]],
    ] as const) {
      const res = await get(`?status=${status}`);
      expect({ status, code: res.status, ids: ids(res), total: res.body.meta.total }).toEqual({ status, code: 200, ids: expected, total: expected.length });
    }
  });

  it('when filtered by severity (any case), alone or with a status, then only matching alerts', async () => {
    const cases: Array<[string, string[]]> = [
      ['?severity=critical', [alerts.critical]],
      ['?severity=MEDIUM', [alerts.warning]],
      ['?severity=Info', [alerts.info]],
      ['?severity=high', []],
      ['?severity=critical&status=acknowledged', [alerts.critical]],
      ['?severity=critical&status=active', []],
    ];
    for (const [query, expected] of cases) {
      const res = await get(query);
      expect({ query, code: res.status, ids: ids(res), total: res.body.meta.total }).toEqual({ query, code: 200, ids: expected, total: expected.length });
    }
  });

  it('when paged with limit and offset, then the page is cut and total still counts every match', async () => {
    const first = await get('?limit=1');
    expect(ids(first)).toEqual([alerts.info]);
    expect(first.body.meta).toEqual({ total: 3, limit: 1, offset: 0 });
    const second = await get('?limit=1&offset=1');
    expect(ids(second)).toEqual([alerts.warning]);
    expect(second.body.meta).toEqual({ total: 3, limit: 1, offset: 1 });
    const max = await get('?limit=100');
    expect(ids(max)).toHaveLength(3);
    expect(max.body.meta).toEqual({ total: 3, limit: 100, offset: 0 });
    const beyond = await get('?offset=10');
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta).toEqual({ total: 3, limit: 50, offset: 10 });
  });

  it('when a filter or paging value is invalid, then 400 invalid_request naming the allowed values', async () => {
    const cases: Array<[string, RegExp]> = [
      ['?status=open', /status must be one of active, acknowledged, resolved/],
      ['?status=', /status must be one of active, acknowledged, resolved/],
      ['?severity=warning', /severity must be one of critical, high, medium, low, info/],
      ['?limit=101', /limit must be at most 100/],
      ['?limit=0', /limit must be at least 1/],
      ['?offset=-1', /offset must be 0 or more/],
    ];
    for (const [query, message] of cases) {
      const res = await get(query);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expectEnvelopeError(res.body, 'invalid_request');
      expect(res.body.error).toMatch(message);
    }
  });

  it('when another workspace lists, then it sees none of these', async () => {
    const res = await request('GET', v1('/alerts?limit=100'), { token: adminKey });
    expect(res.status).toBe(200);
    expect(ids(res)).not.toEqual(expect.arrayContaining([alerts.critical]));
    expect(ids(res).filter((id: string) => Object.values(alerts).includes(id))).toEqual([]);
  });
});

describe('POST /v1/alerts/{id}/acknowledge', () => {
  it('when a member acknowledges an alert, then its incident is ACKNOWLEDGED by that user via the API, and the alert reads acknowledged', async () => {
    const member = await apiKeyFor(stack.orm, ws.organizationId, 'MEMBER');
    const { alertId, incidentId } = await fire(await webhook(), { title: 'ack me', severity: 'critical' });
    await applied(incidentId);
    const res = await post(alertId, 'acknowledge', member.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { id: alertId, status: 'acknowledged', incident_id: incidentId, resolved_at: null } });
    const ackEntry = (await timelineOf(stack.orm, incidentId)).find((e) => e.to_status === 'ACKNOWLEDGED');
    expect(ackEntry).toMatchObject({ actor_type: 'user', actor_id: member.userId, via: 'api' });
    const entryAt = (await knexOf(stack.orm)('timeline_entries').where({ incident_id: incidentId, to_status: 'ACKNOWLEDGED' }).first('created_at')).created_at;
    expect(res.body.data.acknowledged_at).toBe(new Date(entryAt).toISOString());

    const incident = await request('GET', incidentUrl(ws, incidentId), { token: ws.tokens.readWrite });
    expect(incident.status).toBe(200);
    expect(incident.body.data.status).toBe('ACKNOWLEDGED');
    expect((await getAlert(alertId)).body.data).toMatchObject({ status: 'acknowledged', acknowledged_at: res.body.data.acknowledged_at });

    // Again: the incident is already acknowledged, so it is answered as it is.
    const again = await post(alertId, 'acknowledge');
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'acknowledged', acknowledged_at: res.body.data.acknowledged_at });
    expect((await timelineOf(stack.orm, incidentId)).filter((e) => e.to_status === 'ACKNOWLEDGED')).toHaveLength(1);
  });

  it('when the incident is INVESTIGATING, then the alert already reads acknowledged and is answered as it is; a resolved alert is 409 alert_already_resolved', async () => {
    const { alertId, incidentId } = await fire(await webhook(), { title: 'being looked at', severity: 'critical' });
    await applied(incidentId);
    expect((await request('POST', `${incidentUrl(ws, incidentId)}/investigate`, { token: ws.tokens.readWrite })).status).toBe(200);
    const res = await post(alertId, 'acknowledge');
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('acknowledged');
    expect(await statusOf(stack.orm, incidentId)).toBe('INVESTIGATING');

    const other = await fire(await webhook(), { title: 'resolved first', severity: 'warning' });
    await applied(other.incidentId);
    expect((await post(other.alertId, 'resolve')).status).toBe(200);
    const late = await post(other.alertId, 'acknowledge');
    expect(late.status).toBe(409);
    expectEnvelopeError(late.body, 'alert_already_resolved');
  });

  it('when the alert’s incident is RESOLVED or CLOSED, then 409 invalid_transition and the incident stays as it was', async () => {
    const { alertId, incidentId } = await fire(await webhook(), { title: 'too late', severity: 'critical' });
    await applied(incidentId);
    for (const [op, status] of [
      ['resolve', 'RESOLVED'],
      ['close', 'CLOSED'],
    ] as const) {
      const moved = await request('POST', `${incidentUrl(ws, incidentId)}/${op}`, { token: ws.tokens.readWrite });
      expect(moved.status).toBe(200);
      const res = await post(alertId, 'acknowledge');
      expect({ status, code: res.status }).toEqual({ status, code: 409 });
      expectEnvelopeError(res.body, 'invalid_transition');
      expect(await statusOf(stack.orm, incidentId)).toBe(status);
      expect((await getAlert(alertId)).body.data).toMatchObject({ status: 'active', acknowledged_at: null });
    }
  });

  it('when an alert is acknowledged, then its escalation stops: the next step never pages, while an unacknowledged twin’s does', async () => {
    const paged = await seedWorkspace(stack.orm);
    const key = (await apiKeyFor(stack.orm, paged.organizationId, paged.admin)).key;
    const first = await responder(stack.orm, paged.organizationId, 'email');
    const second = await responder(stack.orm, paged.organizationId, 'email');
    // Step 1 pages `first` at once; step 2 pages `second` 6 s later unless someone acknowledges.
    const ingestUrl = await pagingService(
      stack.orm,
      paged,
      {
        steps: [
          { delay_seconds: 6, targets: [{ type: 'user', id: first.id }] },
          { delay_seconds: 6, targets: [{ type: 'user', id: second.id }] },
        ],
      },
      stack.urls.ingest,
    );
    const acked = await trigger(ingestUrl, 'Disk full (acknowledged)');
    const twin = await trigger(ingestUrl, 'Disk full (left alone)');
    const pagesTo = async (incidentId: string, userId: string) => (await notificationsOf(stack.orm, incidentId)).filter((n) => n.user_id === userId).length;
    await waitFor(async () => (await pagesTo(acked, first.id)) > 0, 20_000, 'step 1 to page');

    const alertId = (await knexOf(stack.orm)('alerts').where({ incident_id: acked }).first('id')).id;
    const res = await post(alertId, 'acknowledge', key);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'acknowledged', webhook_id: null });

    // The twin proves step 2 comes when it is due; then a margin for the acknowledged one.
    await waitFor(async () => (await pagesTo(twin, second.id)) > 0, 30_000, 'step 2 of the unacknowledged incident to page');
    await sleep(3000);
    expect(await pagesTo(acked, second.id)).toBe(0);
    expect(await statusOf(stack.orm, acked)).toBe('ACKNOWLEDGED');
  }, 90_000);
});

describe('POST /v1/alerts/{id}/resolve', () => {
  /** Two alerts with one dedup_key: one incident. */
  async function twoAlertIncident() {
    const hook = await webhook();
    const dedupKey = `disk-${randomUUID()}`;
    const a = await fire(hook, { title: 'disk 1', severity: 'critical', dedup_key: dedupKey });
    const b = await fire(hook, { title: 'disk 2', severity: 'critical', dedup_key: dedupKey });
    expect(b.incidentId).toBe(a.incidentId);
    await applied(a.incidentId);
    return { incidentId: a.incidentId, first: a.alertId, second: b.alertId };
  }

  it('when one of two alerts is resolved, then the incident stays open; resolving the second resolves it, as the caller via the API', async () => {
    const member = await apiKeyFor(stack.orm, ws.organizationId, 'MEMBER');
    const { incidentId, first, second } = await twoAlertIncident();
    const one = await post(first, 'resolve', member.key);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: first, status: 'resolved', resolved_at: expect.stringMatching(/^\d{4}-/) });
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect((await getAlert(second)).body.data.status).toBe('active');

    const two = await post(second, 'resolve', member.key);
    expect(two.status).toBe(200);
    expect(two.body.data).toMatchObject({ id: second, status: 'resolved' });
    const incident = await request('GET', incidentUrl(ws, incidentId), { token: ws.tokens.readWrite });
    expect(incident.body.data.status).toBe('RESOLVED');
    expect((await timelineOf(stack.orm, incidentId)).find((e) => e.to_status === 'RESOLVED')).toMatchObject({
      actor_type: 'user',
      actor_id: member.userId,
      via: 'api',
    });
  });

  it('when an alert is resolved twice, then 409 alert_already_resolved and its resolved_at is kept', async () => {
    const { alertId, incidentId } = await fire(await webhook(), { title: 'twice' });
    await applied(incidentId);
    const once = await post(alertId, 'resolve');
    expect(once.status).toBe(200);
    expect(await statusOf(stack.orm, incidentId)).toBe('RESOLVED');
    const before = await alertRow(alertId);
    const twice = await post(alertId, 'resolve');
    expect(twice.status).toBe(409);
    expectEnvelopeError(twice.body, 'alert_already_resolved');
    expect(await alertRow(alertId)).toEqual(before);
    expect((await timelineOf(stack.orm, incidentId)).filter((e) => e.to_status === 'RESOLVED')).toHaveLength(1);
  });

  it('when the last two alerts are resolved at once, then exactly one finds itself last and the incident resolves', async () => {
    const { incidentId, first, second } = await twoAlertIncident();
    const answers = await Promise.all([post(first, 'resolve'), post(second, 'resolve')]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await statusOf(stack.orm, incidentId)).toBe('RESOLVED');
    expect((await timelineOf(stack.orm, incidentId)).filter((e) => e.to_status === 'RESOLVED')).toHaveLength(1);
  });

  it('when the incident is already RESOLVED, then resolving its alert marks the alert only', async () => {
    const { alertId, incidentId } = await fire(await webhook(), { title: 'incident first' });
    await applied(incidentId);
    expect((await request('POST', `${incidentUrl(ws, incidentId)}/resolve`, { token: ws.tokens.readWrite })).status).toBe(200);
    const res = await post(alertId, 'resolve');
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('resolved');
    expect((await timelineOf(stack.orm, incidentId)).filter((e) => e.to_status === 'RESOLVED')).toHaveLength(1);
  });

  it('when the incident cannot be resolved in time (no worker), then 503 and the alert is active again; a retry later resolves both', async () => {
    const { alertId, incidentId } = await fire(await webhook(), { title: 'worker away' });
    await applied(incidentId);
    await stack.worker.stop();
    try {
      const res = await post(alertId, 'resolve');
      expect(res.status).toBe(503);
      expectEnvelopeError(res.body, 'service_unavailable');
      expect(await alertRow(alertId)).toEqual({ status: 'ACTIVE', resolved_at: null });
      expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    } finally {
      await stack.worker.start();
    }
    const retried = await post(alertId, 'resolve');
    expect(retried.status).toBe(200);
    expect(retried.body.data.status).toBe('resolved');
    expect(await statusOf(stack.orm, incidentId)).toBe('RESOLVED');
  }, 60_000);
});
