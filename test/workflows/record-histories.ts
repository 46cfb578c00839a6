/**
 * Records incident workflow histories into test/histories/ for the replay test.
 * Run after a deliberate workflow change, never to make a failing replay pass:
 *   npm run record-histories
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { alertReceivedSignal, alertsReceivedSignal, incidentStateQuery, incidentWorkflowId, type AlertReceived } from '../../src/contracts/workflows';
import { knexOf } from '../../src/db/knex';
import { createSource } from '../../src/services/ingest/sources';
import { waitFor } from '../support/wait';
import { startTestInfra } from '../setup/test-infra';
import { request } from '../support/http';
import { startTestStack } from '../support/stack';
import { seedWorkspace } from '../support/workspace';
import { recordPagingHistories } from './record-paging-histories';
import { recordFailoverHistory } from './record-failover-history';

/**
 * Prefix of the files this run writes. Bump it with each workflow change that alters histories
 * (v2: projections as local activities; v3: alert events by signal; v4: alert events in batches
 * by the alertsReceived signal; v5: paging under patched('paging-escalation'), so every run plans
 * its escalation, and the paging scenarios; v6: a page's first attempt as a local activity under
 * patched('page-local-first-attempt'); v7: paging decisions on the timeline, auto-close of
 * RESOLVED incidents, the lifecycle Update's write budget and the run seeded from the projection
 * after a finished run, each under its patch; v8: a sender's acknowledge under
 * patched('sender-acknowledge'), and its scenario; v9: a spell's plan and its first step's
 * recipients in one lookup under patched('plan-with-first-step'); v10: maintenance windows hold a
 * spell under patched('maintenance-hold'), and their scenarios; v11: a responder's actions
 * (notes, responders, snooze, reassign, merge: new Updates, and the snooze timer), and their
 * scenarios; v12: attached alerts make a spell a grouping rule's page_after holds plan again under
 * patched('grouping-page-after'), and its scenario; v13: both together, recorded once they met;
 * v14: a phone page fails over to the next carrier under patched('carrier-failover'), and its scenario),
 * and keep the older files: they prove old runs replay.
 */
const VERSION = 'v14';

async function main() {
  const infra = await startTestInfra();
  process.env.KLAXON_TEST_DATABASE_URL = infra.databaseUrl;
  process.env.KLAXON_TEST_TEMPORAL_ADDRESS = infra.temporalAddress;
  process.env.KLAXON_TEST_WORKFLOW_BUNDLE = infra.workflowBundlePath;
  const stack = await startTestStack();
  try {
    const ws = await seedWorkspace(stack.orm);
    // Applied events, read from the timeline (a step's paging decision takes a seq too).
    const attachedEntries = async (incidentId: string) =>
      (await knexOf(stack.orm)('timeline_entries').where({ incident_id: incidentId, type: 'alert_attached' })).length;
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
    const source = await createSource(stack.orm, {
      organizationId: ws.organizationId,
      serviceId: ws.serviceId,
      name: 'recorder',
      ingestBaseUrl: stack.urls.ingest,
    });
    const send = (title: string) => request('POST', source.ingest_url, { body: { title, dedup_key: 'recorded' } });
    const opened = (await send('opened')).body.incident_id;
    await send('attached 1');
    await send('attached 2');
    const handle3 = stack.temporal.workflow.getHandle(incidentWorkflowId(opened));
    await waitFor(async () => (await attachedEntries(opened)) === 2);
    const [first] = await knexOf(stack.orm)('alerts').where({ incident_id: opened }).orderBy('created_at').limit(1);
    await handle3.signal(alertReceivedSignal, { eventId: first.id, kind: 'opened', title: 'opened' });
    for (const op of ['resolve', 'close']) await request('POST', url(`/incidents/${opened}/${op}`), { token: ws.tokens.readWrite });
    await handle3.result();
    save(`${VERSION}-incident-from-alerts.json`, await handle3.fetchHistory());

    // An Alertmanager batch opens an incident and attaches two alerts (one signal), the batch is
    // redelivered, then the sender resolves the fingerprint and the workflow resolves the incident.
    const firing = JSON.parse(readFileSync(path.resolve(__dirname, '../fixtures/native/alertmanager/firing.json'), 'utf8'));
    const alertmanager = (status: 'firing' | 'resolved', summaries: string[]) =>
      request('POST', source.ingest_url, {
        body: {
          ...firing,
          status,
          alerts: summaries.map((summary) => ({ ...firing.alerts[0], status, fingerprint: 'recorded-batch', annotations: { summary } })),
        },
      });
    const batched = (await alertmanager('firing', ['batch 1', 'batch 2', 'batch 3'])).body.events[0].incident_id;
    const handle4 = stack.temporal.workflow.getHandle(incidentWorkflowId(batched));
    await waitFor(async () => (await attachedEntries(batched)) === 2);
    const outbox = await knexOf(stack.orm)('ingest_outbox as o')
      .join('alerts as a', 'a.id', 'o.event_id')
      .where({ 'o.incident_id': batched })
      .orderBy('o.seq')
      .select('o.event_id', 'o.kind', 'a.title');
    const events: AlertReceived[] = outbox.map((o) => ({ eventId: o.event_id, kind: o.kind, title: o.title }));
    await handle4.signal(alertsReceivedSignal, { events });
    await alertmanager('resolved', ['batch 3']);
    await waitFor(async () => (await handle4.query(incidentStateQuery)).status === 'RESOLVED');
    await request('POST', url(`/incidents/${batched}/close`), { token: ws.tokens.readWrite });
    await handle4.result();
    save(`${VERSION}-incident-batch-resolved-by-sender.json`, await handle4.fetchHistory());

    // A PagerDuty sender triggers, acknowledges (the incident acknowledges as ingestion, under
    // patched('sender-acknowledge')) and resolves through the compatible intake; then a person closes.
    const enqueue = (event: Record<string, unknown>) =>
      request('POST', `${source.ingest_url}/v2/enqueue`, { body: { routing_key: source.routing_key, dedup_key: 'recorded-ack', ...event } });
    await enqueue({ event_action: 'trigger', payload: { summary: 'acknowledged by its sender', source: 'recorder', severity: 'critical' } });
    const acked = (await knexOf(stack.orm)('alerts').where({ source_id: source.id, dedup_key: 'recorded-ack' }).first()).incident_id;
    const handle5 = stack.temporal.workflow.getHandle(incidentWorkflowId(acked));
    await waitFor(async () => (await handle5.query(incidentStateQuery)).seq >= 2);
    await enqueue({ event_action: 'acknowledge' });
    await waitFor(async () => (await handle5.query(incidentStateQuery)).status === 'ACKNOWLEDGED');
    await enqueue({ event_action: 'resolve' });
    await waitFor(async () => (await handle5.query(incidentStateQuery)).status === 'RESOLVED');
    await request('POST', url(`/incidents/${acked}/close`), { token: ws.tokens.readWrite });
    await handle5.result();
    save(`${VERSION}-incident-sender-acknowledged.json`, await handle5.fetchHistory());

    await recordPagingHistories(stack, (scenario, history) => save(`${VERSION}-incident-${scenario}.json`, history));
  } catch (err) {
    await stack.stop();
    await infra.stop();
    throw err;
  }
  await stack.stop();
  try {
    await recordFailoverHistory((scenario, history) => save(`${VERSION}-incident-${scenario}.json`, history));
  } finally {
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
