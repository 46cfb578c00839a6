/**
 * Records incident workflow histories into test/histories/ for the replay test.
 * Run after a deliberate workflow change, never to make a failing replay pass:
 *   npm run record-histories
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { incidentWorkflowId } from '../../workflows/definitions';
import { startTestInfra } from '../setup/test-infra';
import { request } from '../support/http';
import { startTestStack } from '../support/stack';
import { seedWorkspace } from '../support/workspace';

/**
 * Prefix of the files this run writes. Bump it with each workflow change that alters histories
 * (v2: projections as local activities), and keep the older files: they prove old runs replay.
 */
const VERSION = 'v2';

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
