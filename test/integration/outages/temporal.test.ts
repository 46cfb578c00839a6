import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { heartbeatStateQuery, heartbeatWorkflowId, incidentStateQuery, incidentWorkflowId } from '../../../src/contracts/workflows';
import { knexOf } from '../../../src/db/knex';
import { createIncident } from '../../../src/services/incident/incidents';
import { outageOf } from '../../../src/services/outages';
import { signAction } from '../../../src/services/response/action-tokens';
import { request, type ApiResponse } from '../../support/http';
import { notificationsOf, timelineOf } from '../../support/paging';
import { startTestStack, TEST_SECRET, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';
import { expectUnavailable, footprint, quietHeartbeat, teamResponder, temporalProxy } from './support';

/**
 * Temporal cut off (client and worker both reach it through a proxy): every call that needs it
 * answers 503 with Retry-After, leaves nothing behind, and succeeds once when retried after.
 */
let stack: TestStack;
let ws: SeededWorkspace;
let cut: () => void;
let restore: () => void;
let closeProxy: () => Promise<void>;
let proxiedAddress: string;
const TEMPORAL = /Temporal/;

beforeAll(async () => {
  const { proxy, address } = await temporalProxy();
  cut = () => proxy.cut();
  restore = () => proxy.restore();
  closeProxy = () => proxy.close();
  proxiedAddress = address;
  stack = await startTestStack({ temporalAddress: address });
  ws = await seedWorkspace(stack.orm);
  await teamResponder(stack.orm, ws);
});
afterAll(async () => {
  restore();
  await stack.stop();
  await closeProxy();
});

const incidents = (path = '') => `${stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents${path}`;
const create = (title: string) => request('POST', incidents(), { token: ws.tokens.readWrite, body: { title, severity: 'HIGH', owning_team_id: ws.teamId } });
/** Retries as a client does after a 503, until Temporal is reachable again (the worker reconnects on its own). */
const retried = (call: () => Promise<ApiResponse>, ok: number) =>
  waitFor(
    async () => {
      const res = await call();
      return res.status === ok ? res : undefined;
    },
    45_000,
    `the call to answer ${ok} after the outage`,
  );

/**
 * The incident has paged and its workflow task completed. Cut while that task is in flight, its
 * completion is lost after its local activities wrote (the page's entry takes seq 2); the retried
 * task can then hand seq 2 to the acknowledge, which the store skips as already written. That is
 * a separate defect (seq reuse after a lost workflow task), not what these tests are about.
 */
const settled = (incidentId: string) =>
  waitFor(
    async () => {
      const sent = (await notificationsOf(stack.orm, incidentId)).some((n) => n.status === 'sent');
      return sent && !(await stack.temporal.workflow.getHandle(incidentWorkflowId(incidentId)).describe()).raw.pendingWorkflowTask;
    },
    20_000,
    'the incident to page and its workflow task to complete',
  );

describe('when Temporal is unreachable', () => {
  it('then POST /incidents answers 503 and keeps nothing; retried after, it opens one incident that pages', async () => {
    const before = await footprint(stack.orm, ws.organizationId);
    cut();
    try {
      expectUnavailable(await create('Checkout down during a Temporal outage'), TEMPORAL);
      expect(await footprint(stack.orm, ws.organizationId)).toEqual(before);
    } finally {
      restore();
    }
    const created = await retried(() => create('Checkout down during a Temporal outage'), 201);
    const rows = await knexOf(stack.orm)('incidents').where({ organization_id: ws.organizationId, title: 'Checkout down during a Temporal outage' });
    expect(rows.map((r) => r.id)).toEqual([created.body.data.id]);
    // The number the failed call took was given back.
    expect(created.body.data.number).toBe(before.incidentSeq + 1);
    const handle = stack.temporal.workflow.getHandle(incidentWorkflowId(created.body.data.id));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await settled(created.body.data.id);
    expect((await notificationsOf(stack.orm, created.body.data.id)).map((p) => [p.channel, p.status])).toEqual([['email', 'sent']]);
    expect(await knexOf(stack.orm)('ingest_outbox').where({ incident_id: created.body.data.id }).whereNull('delivered_at')).toEqual([]);
  }, 90_000);

  it('then a heartbeat ping answers 503 and records nothing; retried after, the workflow hears one ping', async () => {
    const hb = await quietHeartbeat(stack.orm, ws, stack.urls.ingest);
    cut();
    try {
      expectUnavailable(await request('POST', hb.ping_url), TEMPORAL);
      expect((await knexOf(stack.orm)('heartbeats').where({ id: hb.id }).first()).last_ping_at).toBeNull();
    } finally {
      restore();
    }
    expect((await retried(() => request('POST', hb.ping_url), 200)).body).toEqual({ status: 'ok' });
    expect((await knexOf(stack.orm)('heartbeats').where({ id: hb.id }).first()).last_ping_at).not.toBeNull();
    const state = await stack.temporal.workflow.getHandle(heartbeatWorkflowId(hb.id)).query(heartbeatStateQuery);
    expect(state.pings).toBe(1);
  }, 90_000);

  it('then acknowledge answers 503 and moves nothing; retried after, it acknowledges once', async () => {
    const inc = (await create('Acknowledged across a Temporal outage')).body.data;
    await settled(inc.id);
    cut();
    try {
      expectUnavailable(await request('POST', incidents(`/${inc.id}/acknowledge`), { token: ws.tokens.readWrite }), TEMPORAL);
      expect((await knexOf(stack.orm)('incidents').where({ id: inc.id }).first()).status).toBe('TRIGGERED');
    } finally {
      restore();
    }
    const acked = await retried(() => request('POST', incidents(`/${inc.id}/acknowledge`), { token: ws.tokens.readWrite }), 200);
    expect(acked.body.data.status).toBe('ACKNOWLEDGED');
    const moves = (await timelineOf(stack.orm, inc.id)).filter((e) => e.type === 'status_change');
    expect(moves.map((e) => e.to_status)).toEqual(['ACKNOWLEDGED']);
    expect(await stack.temporal.workflow.getHandle(incidentWorkflowId(inc.id)).query(incidentStateQuery)).toMatchObject({ status: 'ACKNOWLEDGED' });
  }, 90_000);

  it('then a signed email link answers 503 and stays usable; posted again after, it acknowledges', async () => {
    const inc = (await create('Acknowledged by email across a Temporal outage')).body.data;
    await settled(inc.id);
    const [page] = await notificationsOf(stack.orm, inc.id);
    const link = `${stack.urls.app}/hooks/page/${signAction(TEST_SECRET, { notificationId: page.id, action: 'acknowledge', expiresAt: Math.floor(Date.now() / 1000) + 600 })}`;
    cut();
    try {
      expectUnavailable(await request('POST', link), TEMPORAL);
    } finally {
      restore();
    }
    const used = await retried(() => request('POST', link), 200);
    expect(used.body).toContain('is acknowledged');
    expect((await knexOf(stack.orm)('incidents').where({ id: inc.id }).first()).status).toBe('ACKNOWLEDGED');
  }, 90_000);

  it('then an incident opened beside a worker (eager start on its connection) is taken back too', async () => {
    const native = await NativeConnection.connect({ address: proxiedAddress });
    const deps = { orm: stack.orm, temporal: stack.temporal, taskQueue: stack.taskQueue, eagerClient: new Client({ connection: native }) };
    const input = {
      organizationId: ws.organizationId,
      title: 'Opened eagerly across a Temporal outage',
      severity: 'LOW' as const,
      owningTeamId: ws.teamId,
      actor: { type: 'system' as const, id: null, via: 'test' },
    };
    try {
      const before = await footprint(stack.orm, ws.organizationId);
      cut();
      try {
        const failure = await createIncident(deps, input).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(outageOf(failure)).toBe('temporal');
        expect(await footprint(stack.orm, ws.organizationId)).toEqual(before);
      } finally {
        restore();
      }
      const opened = await waitFor(() => createIncident(deps, input), 45_000, 'the incident to open after the outage');
      expect((await stack.temporal.workflow.getHandle(incidentWorkflowId(opened.id)).describe()).status.name).toBe('RUNNING');
      expect(await knexOf(stack.orm)('incidents').where({ title: input.title })).toHaveLength(1);
    } finally {
      await native.close();
    }
  }, 90_000);
});
