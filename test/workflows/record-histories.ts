/**
 * Records incident workflow histories into test/histories/ for the replay test.
 * Run after a deliberate workflow change, never to make a failing replay pass:
 *   npm run record-histories
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { alertReceivedSignal, incidentStateQuery, incidentWorkflowId } from '../../workflows/definitions';
import { knexOf } from '../../src/services/db';
import { createSource } from '../../src/services/sources';
import { waitFor } from '../support/wait';
import { startTestInfra } from '../setup/test-infra';
import { request } from '../support/http';
import { startTestStack } from '../support/stack';
import { seedWorkspace } from '../support/workspace';

/**
 * Prefix of the files this run writes. Bump it with each workflow change that alters histories
 * (v2: projections as local activities; v3: alert events by signal), and keep the older files:
 * they prove old runs replay.
 */
const VERSION = 'v3';

async function main() {
  const infra = await startTestInfra();
  process.env.KLAXON_TEST_DATABASE_URL = infra.databaseUrl;
  process.env.KLAXON_TEST_TEMPORAL_ADDRESS = infra.temporalAddress;
  process.env.KLAXON_TEST_WORKFLOW_BUNDLE = infra.workflowBundlePath;
  const stack = await startTestStack();
  try {
    const ws = await seedWorkspace(stack.orm);
    const url = (p: string) => `${stack.urls.app}/api/v1/organizations/${ws.organizationId}${p}`;
    const post = (p: string, body?: unknown) => request('POST', url(p), { token: ws.tokens.readWrite, body });
    const id = (await post('/incidents', { title: 'recorded', severity: 'HIGH', owning_team_id: ws.teamId })).body.data.id;
    for (const op of ['acknowledge', 'acknowledge', 'investigate', 'resolve', 'close']) await post(`/incidents/${id}/${op}`);
    const handle = stack.temporal.workflow.getHandle(incidentWorkflowId(id));
    await handle.result();
    save(`${VERSION}-incident-lifecycle-closed.json`, await handle.fetchHistory());
    for (const op of ['reopen', 'acknowledge', 'resolve', 'close']) await post(`/incidents/${id}/${op}`);
    const second = stack.temporal.workflow.getHandle(incidentWorkflowId(id));
    await second.result();
    save(`${VERSION}-incident-reopened-run.json`, await second.fetchHistory());

    // An incident opened by alerts: the opening event, two attached ones and a redelivery.
    const source = await createSource(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name: 'recorder', ingestBaseUrl: stack.urls.ingest });
    const send = (title: string) => request('POST', source.ingest_url, { body: { title, dedup_key: 'recorded' } });
    const opened = (await send('opened')).body.incident_id;
    await send('attached 1');
    await send('attached 2');
    const handle3 = stack.temporal.workflow.getHandle(incidentWorkflowId(opened));
    await waitFor(async () => (await handle3.query(incidentStateQuery)).seq === 3);
    const [first] = await knexOf(stack.orm)('alerts').where({ incident_id: opened }).orderBy('created_at').limit(1);
    await handle3.signal(alertReceivedSignal, { eventId: first.id, kind: 'opened', title: 'opened' });
    for (const op of ['resolve', 'close']) await request('POST', url(`/incidents/${opened}/${op}`), { token: ws.tokens.readWrite });
    await handle3.result();
    save(`${VERSION}-incident-from-alerts.json`, await handle3.fetchHistory());
  } finally {
    await stack.stop();
    await infra.stop();
  }
}

function save(name: string, history: Parameters<typeof historyToJSON>[0]) {
  const file = path.join(__dirname, '..', 'histories', name);
  writeFileSync(file, historyToJSON(history));
  process.stdout.write(`wrote ${path.relative(process.cwd(), file)} (${history.events?.length} events)\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
