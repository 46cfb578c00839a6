import { readFileSync } from 'node:fs';
import path from 'node:path';
import { incidentStateQuery, incidentWorkflowId } from '../../../src/contracts/workflows';
import { knexOf } from '../../../src/db/knex';
import { createSource } from '../../../src/services/ingest/sources';
import { useStackWithWorkspace } from '../../support/fixture';
import { request } from '../../support/http';
import { waitFor } from '../../support/wait';

const FIXTURES = path.resolve(__dirname, '../../fixtures/native');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
const fixtureHeaders = (name: string): Record<string, string> => {
  try {
    return JSON.parse(fixture(name.replace(/\.json$/, '.headers.json')));
  } catch {
    return { 'Content-Type': 'application/json' };
  }
};

const f = useStackWithWorkspace();
let ingestUrl: string;
beforeAll(async () => {
  ingestUrl = (
    await createSource(f.stack.orm, { organizationId: f.ws.organizationId, serviceId: f.ws.serviceId, name: 'natives', ingestBaseUrl: f.stack.urls.ingest })
  ).ingest_url;
});

const post = (name: string, raw = fixture(name)) =>
  request('POST', ingestUrl, { rawBody: raw, headers: { ...fixtureHeaders(name), 'Content-Type': 'application/json' } });
const state = (id: string) => f.stack.temporal.workflow.getHandle(incidentWorkflowId(id)).query(incidentStateQuery);

describe('native payloads', () => {
  it.each([
    ['alertmanager/firing.json', 'alertmanager/resolved.json', 'Replication lag on pg-replica-03 is 47s', 'CRITICAL'],
    ['datadog/triggered.json', 'datadog/recovered.json', 'Root volume almost full (host:web-07)', 'CRITICAL'],
    ['grafana/firing.json', 'grafana/resolved.json', '/srv/backups on nas-backup-01 is 93% full', 'MEDIUM'],
    ['uptime-kuma/down.json', 'uptime-kuma/up.json', 'billing-portal (public)', 'CRITICAL'],
  ])('when %s fires and then resolves, then an incident opens and its workflow resolves it', async (firing, resolved, title, severity) => {
    const opened = await post(firing);
    expect(opened.status).toBe(202);
    const id = opened.body.incident_id;
    expect(await knexOf(f.stack.orm)('incidents').where({ id }).first()).toMatchObject({ title, severity, status: 'TRIGGERED' });
    await waitFor(() => state(id), 30_000, 'the workflow');

    const closing = await post(resolved);
    expect(closing.status).toBe(202);
    expect(closing.body.incident_id).toBe(id);
    await waitFor(async () => (await state(id)).status === 'RESOLVED', 30_000, 'the workflow to resolve');
    const incident = await knexOf(f.stack.orm)('incidents').where({ id }).first();
    expect(incident.status).toBe('RESOLVED');
    expect(incident.severity).toBe(severity); // a resolve never changes the stored severity
    expect((await knexOf(f.stack.orm)('alerts').where({ incident_id: id })).map((a) => a.status)).toEqual(['RESOLVED']);
    const last = await knexOf(f.stack.orm)('timeline_entries').where({ incident_id: id }).orderBy('seq', 'desc').first();
    expect(last).toMatchObject({ to_status: 'RESOLVED', actor_type: 'system', via: 'ingest' });
  });

  it('when one of two alerts on an incident resolves, then the incident stays open until the other does', async () => {
    const raw = JSON.parse(fixture('alertmanager/firing.json'));
    const second = { ...raw.alerts[0], fingerprint: 'second-fp' };
    const batch = await post('alertmanager/firing.json', JSON.stringify({ ...raw, alerts: [{ ...raw.alerts[0], fingerprint: 'first-fp' }, second] }));
    expect(batch.body.events).toHaveLength(2);
    const ids = batch.body.events.map((e: { incident_id: string }) => e.incident_id);
    // Different fingerprints are different alerts: two incidents.
    expect(new Set(ids).size).toBe(2);
    const resolvedRaw = JSON.parse(fixture('alertmanager/resolved.json'));
    const res = await post('alertmanager/resolved.json', JSON.stringify({ ...resolvedRaw, alerts: [{ ...resolvedRaw.alerts[0], fingerprint: 'first-fp' }] }));
    expect(res.body.incident_id).toBe(ids[0]);
    await waitFor(async () => (await state(ids[0])).status === 'RESOLVED');
    expect((await state(ids[1])).status).toBe('TRIGGERED');
  });

  it('when a resolve names no open alert, then 202 and nothing changes', async () => {
    const before = await knexOf(f.stack.orm)('incidents').where({ organization_id: f.ws.organizationId }).select('id', 'status');
    const res = await post('zabbix/recovery.json');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'accepted', incident_id: null, duplicate: false });
    expect(await knexOf(f.stack.orm)('incidents').where({ organization_id: f.ws.organizationId }).select('id', 'status')).toEqual(before);
  });
});
