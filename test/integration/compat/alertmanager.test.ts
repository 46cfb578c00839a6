import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { createSource, type SourceWithUrl } from '../../../src/services/ingest/sources';
import { ensureAlertmanager, postAlerts, startAlertmanager, type RunningAlertmanager } from '../../support/alertmanager';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

// A real Prometheus Alertmanager (built once into .tools/bin) notifying Klaxon through its
// pagerduty_configs and opsgenie_configs, each pointed at a source's ingestion URL (docs/compat-intake.md).
let stack: TestStack;
let ws: SeededWorkspace;
let pagerDuty: SourceWithUrl;
let opsgenie: SourceWithUrl;
let am: RunningAlertmanager;

beforeAll(async () => {
  const binary = ensureAlertmanager((line) => process.stderr.write(`[alertmanager] ${line}\n`));
  stack = await startTestStack();
  ws = await seedWorkspace(stack.orm);
  const source = (name: string) =>
    createSource(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name, ingestBaseUrl: stack.urls.ingest });
  pagerDuty = await source('alertmanager via pagerduty_configs');
  opsgenie = await source('alertmanager via opsgenie_configs');
  am = await startAlertmanager(binary, config(pagerDuty, opsgenie));
}, 900_000);

afterAll(async () => {
  await am?.stop();
  await stack?.stop();
});

/** The one-line change the README shows: the receivers' URL points at Klaxon, the key is the source's routing key. */
function config(pd: SourceWithUrl, og: SourceWithUrl): string {
  return `
route:
  receiver: pagerduty
  group_by: [alertname]
  group_wait: 200ms
  group_interval: 1s
  repeat_interval: 1h
  routes:
    - receiver: opsgenie
      matchers: ['via="opsgenie"']
receivers:
  - name: pagerduty
    pagerduty_configs:
      - url: ${pd.ingest_url}/v2/enqueue
        routing_key: ${pd.routing_key}
  - name: opsgenie
    opsgenie_configs:
      - api_url: ${og.ingest_url}/
        api_key: ${og.routing_key}
`;
}

const incidentOf = (src: SourceWithUrl) =>
  waitFor(
    async () => {
      const alert = await knexOf(stack.orm)('alerts').where({ source_id: src.id }).first();
      return alert && (await knexOf(stack.orm)('incidents').where({ id: alert.incident_id }).first());
    },
    30_000,
    `an incident from Alertmanager (${am.output().slice(-1500)})`,
  );

const statusOf = (incidentId: string, status: string) =>
  waitFor(
    async () => (await knexOf(stack.orm)('incidents').where({ id: incidentId }).first()).status === status,
    30_000,
    `incident ${status} (${am.output().slice(-1500)})`,
  );

/** Fires an alert at Alertmanager, then resolves it (endsAt in the past), as Prometheus would. */
async function fireThenResolve(src: SourceWithUrl, via: 'pagerduty' | 'opsgenie') {
  const labels = { alertname: `DiskFull-${randomUUID().slice(0, 8)}`, via, severity: 'critical' };
  const annotations = { summary: 'Disk full on db-1' };
  const startsAt = new Date(Date.now() - 60_000).toISOString();
  await postAlerts(am.url, [{ labels, annotations, startsAt, endsAt: new Date(Date.now() + 3_600_000).toISOString() }]);
  const incident = await incidentOf(src);
  expect(incident).toMatchObject({ service_id: ws.serviceId, status: 'TRIGGERED' });
  await postAlerts(am.url, [{ labels, annotations, startsAt, endsAt: new Date(Date.now() - 1000).toISOString() }]);
  await statusOf(incident.id, 'RESOLVED');
  return incident;
}

describe('a real Alertmanager switched to Klaxon by its URL', () => {
  it('when pagerduty_configs points at {ingest_url}/v2/enqueue, then a firing alert opens an incident and its resolve resolves it', async () => {
    const incident = await fireThenResolve(pagerDuty, 'pagerduty');
    const alert = await knexOf(stack.orm)('alerts').where({ incident_id: incident.id }).first();
    // Alertmanager's dedup_key is its group key's hash; its default severity is "error".
    expect(alert).toMatchObject({ sender: 'pagerduty-events-v2', severity: 'HIGH', status: 'RESOLVED', dedup_key: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(alert.title).toMatch(/DiskFull/);
  });

  it('when opsgenie_configs points its api_url at {ingest_url}/, then a firing alert opens an incident and the close resolves it', async () => {
    const incident = await fireThenResolve(opsgenie, 'opsgenie');
    const alert = await knexOf(stack.orm)('alerts').where({ incident_id: incident.id }).first();
    expect(alert).toMatchObject({ sender: 'opsgenie-alert-api', status: 'RESOLVED', dedup_key: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(alert.title).toMatch(/DiskFull/);
  });
});
