import { mkdtempSync, chmodSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { incidentStateQuery, incidentWorkflowId } from '../../../src/contracts/workflows';
import { freePort } from '../../../src/net';
import { knexOf } from '../../../src/db/knex';
import { createSource } from '../../../src/services/ingest/sources';
import { ensureTemporalCli } from '../../../src/temporal/cli-binary';
import { startDevServer, type DevServer } from '../../../src/temporal/dev-server';
import { request } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { postgresProxy } from '../outages/support';
import { seedWorkspace } from '../../support/workspace';

describe('when Postgres is unreachable', () => {
  it('then ingestion answers 503 quickly and writes nothing; once back, events are accepted again', async () => {
    const { proxy, url } = await postgresProxy();
    const stack = await startTestStack({ databaseUrl: url });
    try {
      const ws = await seedWorkspace(stack.orm);
      const src = await createSource(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name: 'pg', ingestBaseUrl: stack.urls.ingest });
      expect((await request('POST', src.ingest_url, { body: { title: 'before' } })).status).toBe(202);

      proxy.cut();
      const started = Date.now();
      const down = await request('POST', src.ingest_url, { body: { title: 'during outage' } });
      expect(down.status).toBe(503);
      expect(down.body.message).toMatch(/unavailable/);
      expect(down.headers.get('retry-after')).toBe('5');
      expect(Date.now() - started).toBeLessThan(6000);

      proxy.restore();
      expect((await request('POST', src.ingest_url, { body: { title: 'after' } })).status).toBe(202);
      const titles = (await knexOf(stack.orm)('alerts').where({ source_id: src.id }).orderBy('created_at')).map((a) => a.title);
      expect(titles).toEqual(['before', 'after']);
    } finally {
      await stack.stop();
      await proxy.close();
    }
  });
});

describe('when the Temporal server is down', () => {
  let dataDir: string;
  let server: DevServer | undefined;
  let stack: TestStack | undefined;
  afterAll(async () => {
    await stack?.stop().catch(() => {});
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('then events are still accepted and are delivered once it is back', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-temporal-down-'));
    chmodSync(dataDir, 0o755);
    const cliPath = await ensureTemporalCli(process.env.TEMPORAL_CLI_PATH, () => {});
    const port = await freePort();
    const start = () => startDevServer({ cliPath, port, namespace: 'default', headless: true, dataDir });
    server = await start();
    stack = await startTestStack({ temporalAddress: server.address });
    const ws = await seedWorkspace(stack.orm);
    const src = await createSource(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name: 'tdown', ingestBaseUrl: stack.urls.ingest });

    await server.stop();
    server = undefined;
    const answers = [];
    for (const title of ['one', 'two']) answers.push(await request('POST', src.ingest_url, { body: { title, dedup_key: 'temporal-down' } }));
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    const id = answers[0].body.incident_id;
    expect(answers[1].body.incident_id).toBe(id);
    const pending = await knexOf(stack.orm)('ingest_outbox').where({ incident_id: id }).whereNull('delivered_at');
    expect(pending).toHaveLength(2);

    server = await start();
    // Applied: the second event is on the timeline as attached (seq 1 is the opening; the step's
    // paging decision takes a seq of its own, before or after it).
    const attached = await waitFor(
      async () => (await knexOf(stack!.orm)('timeline_entries').where({ incident_id: id, type: 'alert_attached' })).length || undefined,
      75_000,
      'delivery after Temporal came back',
    );
    expect(attached).toBe(1);
    expect(await stack.temporal.workflow.getHandle(incidentWorkflowId(id)).query(incidentStateQuery)).toMatchObject({ status: 'TRIGGERED' });
    expect(await knexOf(stack.orm)('ingest_outbox').where({ incident_id: id }).whereNull('delivered_at')).toHaveLength(0);
  }, 150_000);
});
