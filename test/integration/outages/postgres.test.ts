import { readFileSync } from 'node:fs';
import type { Worker } from '@temporalio/worker';
import { heartbeatStateQuery, heartbeatWorkflowId, incidentStateQuery, incidentWorkflowId } from '../../../src/contracts/workflows';
import { knexOf } from '../../../src/db/knex';
import { openOrm, type MikroORM } from '../../../src/db/orm';
import { createSource } from '../../../src/services/ingest/sources';
import { pagingDeps } from '../../../src/stack/paging';
import { createKlaxonWorker } from '../../../src/temporal/worker';
import { closeChannelSenders } from '../../../src/integrations/wiring';
import { request, type ApiResponse } from '../../support/http';
import { notificationsOf, timelineOf } from '../../support/paging';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';
import { expectUnavailable, footprint, postgresProxy, quietHeartbeat, teamResponder } from './support';

const DATABASE = /database/;

/** Retries as a client does after a 503, until the call answers `ok`. */
const retried = (call: () => Promise<ApiResponse>, ok: number) =>
  waitFor(
    async () => {
      const res = await call();
      return res.status === ok ? res : undefined;
    },
    30_000,
    `the call to answer ${ok} after the outage`,
  );

/** The incident has paged and its workflow task completed: nothing of its opening is still in flight. */
const settled = (stack: TestStack, orm: MikroORM, incidentId: string) =>
  waitFor(
    async () => {
      const sent = (await notificationsOf(orm, incidentId)).some((n) => n.status === 'sent');
      return sent && !(await stack.temporal.workflow.getHandle(incidentWorkflowId(incidentId)).describe()).raw.pendingWorkflowTask;
    },
    20_000,
    'the incident to page and its workflow task to complete',
  );

describe('when Postgres is unreachable for the whole stack', () => {
  let stack: TestStack;
  let direct: MikroORM;
  let ws: SeededWorkspace;
  let proxy: Awaited<ReturnType<typeof postgresProxy>>['proxy'];

  beforeAll(async () => {
    const pg = await postgresProxy();
    proxy = pg.proxy;
    stack = await startTestStack({ databaseUrl: pg.url });
    // Counts are read past the proxy, while it is cut.
    direct = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 2);
    ws = await seedWorkspace(direct);
    await teamResponder(direct, ws);
  });
  afterAll(async () => {
    proxy.restore();
    await stack.stop();
    await direct.close();
    await proxy.close();
  });

  const incidents = (path = '') => `${stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents${path}`;
  const create = (title: string) => request('POST', incidents(), { token: ws.tokens.readWrite, body: { title, severity: 'HIGH', owning_team_id: ws.teamId } });

  it('then POST /incidents, a ping, acknowledge and ingestion answer 503 and write nothing; retried after, each succeeds once', async () => {
    const hb = await quietHeartbeat(direct, ws, stack.urls.ingest);
    const source = await createSource(direct, {
      organizationId: ws.organizationId,
      serviceId: ws.serviceId,
      name: 'pg outage',
      ingestBaseUrl: stack.urls.ingest,
    });
    const open = (await create('Open before the outage')).body.data;
    await settled(stack, direct, open.id);
    const before = await footprint(direct, ws.organizationId);

    proxy.cut();
    try {
      expectUnavailable(await create('Opened across a Postgres outage'), DATABASE);
      expectUnavailable(await request('POST', hb.ping_url), DATABASE);
      expectUnavailable(await request('POST', incidents(`/${open.id}/acknowledge`), { token: ws.tokens.readWrite }), DATABASE);
      expectUnavailable(await request('POST', source.ingest_url, { body: { title: 'Disk full across a Postgres outage' } }), DATABASE);
      expect(await footprint(direct, ws.organizationId)).toEqual(before);
      expect((await knexOf(direct)('heartbeats').where({ id: hb.id }).first()).last_ping_at).toBeNull();
      expect(await knexOf(direct)('alerts').where({ source_id: source.id })).toEqual([]);
    } finally {
      proxy.restore();
    }

    const created = await retried(() => create('Opened across a Postgres outage'), 201);
    expect(
      (await knexOf(direct)('incidents').where({ organization_id: ws.organizationId, title: 'Opened across a Postgres outage' })).map((r) => r.id),
    ).toEqual([created.body.data.id]);
    await settled(stack, direct, created.body.data.id);

    await retried(() => request('POST', hb.ping_url), 200);
    expect((await stack.temporal.workflow.getHandle(heartbeatWorkflowId(hb.id)).query(heartbeatStateQuery)).pings).toBe(1);

    expect((await retried(() => request('POST', incidents(`/${open.id}/acknowledge`), { token: ws.tokens.readWrite }), 200)).body.data.status).toBe(
      'ACKNOWLEDGED',
    );
    expect((await timelineOf(direct, open.id)).filter((e) => e.type === 'status_change').map((e) => e.to_status)).toEqual(['ACKNOWLEDGED']);

    await retried(() => request('POST', source.ingest_url, { body: { title: 'Disk full across a Postgres outage' } }), 202);
    expect(await knexOf(direct)('alerts').where({ source_id: source.id })).toHaveLength(1);
  }, 120_000);
});

describe("when only the worker's Postgres is unreachable", () => {
  let stack: TestStack;
  let proxy: Awaited<ReturnType<typeof postgresProxy>>['proxy'];
  let workerOrm: MikroORM;
  let ws: SeededWorkspace;
  let stopWorker: () => Promise<void>;

  beforeAll(async () => {
    const pg = await postgresProxy();
    proxy = pg.proxy;
    // The API reads and writes Postgres directly; the worker (workflow projections, paging) through the proxy.
    stack = await startTestStack({ worker: false });
    workerOrm = await openOrm(pg.url, 4);
    const paging = pagingDeps(stack.config, workerOrm);
    const workflowBundle = { code: readFileSync(process.env.KLAXON_TEST_WORKFLOW_BUNDLE!, 'utf8') };
    const { worker, connection } = await createKlaxonWorker({
      address: process.env.KLAXON_TEST_TEMPORAL_ADDRESS!,
      namespace: 'default',
      taskQueue: stack.taskQueue,
      orm: workerOrm,
      workflowBundle,
      paging,
    });
    const running = (worker as Worker).run();
    stopWorker = async () => {
      worker.shutdown();
      await running;
      await connection.close();
      await closeChannelSenders(paging.senders);
    };
    ws = await seedWorkspace(stack.orm);
    await teamResponder(stack.orm, ws);
  });
  afterAll(async () => {
    proxy.restore();
    await stack.stop();
    await stopWorker();
    await workerOrm.close();
    await proxy.close();
  });

  const incidents = (path = '') => `${stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents${path}`;
  const acknowledge = (id: string) => request('POST', incidents(`/${id}/acknowledge`), { token: ws.tokens.readWrite });
  const opened = async (title: string) => {
    const res = await request('POST', incidents(), { token: ws.tokens.readWrite, body: { title, severity: 'HIGH', owning_team_id: ws.teamId } });
    await settled(stack, stack.orm, res.body.data.id);
    return res.body.data as { id: string };
  };
  const workflowState = (id: string) => stack.temporal.workflow.getHandle(incidentWorkflowId(id)).query(incidentStateQuery);

  it('then acknowledge gives up in time with 503 and moves nothing; retried after, it acknowledges once', async () => {
    const inc = await opened('Acknowledged while the worker cannot write');
    const seqBefore = (await workflowState(inc.id)).seq;
    proxy.cut();
    try {
      expectUnavailable(await acknowledge(inc.id), DATABASE);
      expect(await workflowState(inc.id)).toEqual({ status: 'TRIGGERED', seq: seqBefore });
      expect((await knexOf(stack.orm)('incidents').where({ id: inc.id }).first()).status).toBe('TRIGGERED');
    } finally {
      proxy.restore();
    }
    expect((await retried(() => acknowledge(inc.id), 200)).body.data.status).toBe('ACKNOWLEDGED');
    expect(await workflowState(inc.id)).toEqual({ status: 'ACKNOWLEDGED', seq: seqBefore + 1 });
    expect((await timelineOf(stack.orm, inc.id)).filter((e) => e.type === 'status_change').map((e) => e.to_status)).toEqual(['ACKNOWLEDGED']);
  }, 90_000);

  it('then an alert that arrives keeps retrying until Postgres is back, and an acknowledge queued behind it answers 503 and moves nothing', async () => {
    const source = await createSource(stack.orm, {
      organizationId: ws.organizationId,
      serviceId: ws.serviceId,
      name: 'worker pg',
      ingestBaseUrl: stack.urls.ingest,
    });
    const first = await request('POST', source.ingest_url, { body: { title: 'Queue backlog', dedup_key: 'backlog' } });
    const id = first.body.incident_id as string;
    await settled(stack, stack.orm, id);
    proxy.cut();
    try {
      expect((await request('POST', source.ingest_url, { body: { title: 'Queue backlog again', dedup_key: 'backlog' } })).status).toBe(202);
      // Delivered by the relay; the workflow's write of it waits for Postgres.
      await waitFor(
        async () => (await knexOf(stack.orm)('ingest_outbox').where({ incident_id: id }).whereNull('delivered_at')).length === 0,
        15_000,
        'the alert delivered',
      );
      expectUnavailable(await acknowledge(id), /./);
      expect((await knexOf(stack.orm)('timeline_entries').where({ incident_id: id, type: 'alert_attached' })).length).toBe(0);
    } finally {
      proxy.restore();
    }
    await waitFor(
      async () => (await knexOf(stack.orm)('timeline_entries').where({ incident_id: id, type: 'alert_attached' })).length === 1,
      30_000,
      'the attached alert written once Postgres is back',
    );
    expect((await workflowState(id)).status).toBe('TRIGGERED');
    expect((await retried(() => acknowledge(id), 200)).body.data.status).toBe('ACKNOWLEDGED');
    const timeline = await timelineOf(stack.orm, id);
    expect(timeline.filter((e) => e.type !== 'notification' && e.type !== 'paging_decision').map((e) => e.type)).toEqual([
      'created',
      'alert_attached',
      'status_change',
    ]);
  }, 90_000);
});
