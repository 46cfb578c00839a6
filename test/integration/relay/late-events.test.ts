import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { alertsReceivedSignal, incidentStateQuery, incidentWorkflowId } from '../../../src/contracts/workflows';
import { knexOf } from '../../../src/db/knex';
import { createSource } from '../../../src/services/ingest/sources';
import { transitionIncident } from '../../../src/services/incident/incidents';
import type { LifecycleOperation } from '../../../src/domain/incident-lifecycle';
import { useStackWithWorkspace } from '../../support/fixture';
import { request } from '../../support/http';
import { waitFor } from '../../support/wait';

/**
 * Events that reach an incident after its workflow completed: redelivered by the outbox, or
 * accepted before a person reopened it. A run started after earlier ones completed takes the
 * events they applied from the projection, so nothing is applied twice and a stale resolve
 * never resolves a reopened incident.
 */
const f = useStackWithWorkspace();
let ingestUrl: string;
beforeAll(async () => {
  ingestUrl = (
    await createSource(f.stack.orm, { organizationId: f.ws.organizationId, serviceId: f.ws.serviceId, name: 'late', ingestBaseUrl: f.stack.urls.ingest })
  ).ingest_url;
});

const FIRING = JSON.parse(readFileSync(path.resolve(__dirname, '../../fixtures/native/alertmanager/firing.json'), 'utf8'));
const alertmanager = async (fingerprint: string, status: 'firing' | 'resolved', summary: string): Promise<string> => {
  const res = await request('POST', ingestUrl, {
    body: { ...FIRING, status, alerts: [{ ...FIRING.alerts[0], status, fingerprint, annotations: { summary } }] },
  });
  expect(res.status).toBe(202);
  return res.body.incident_id as string;
};

const db = () => knexOf(f.stack.orm);
const handle = (incidentId: string) => f.stack.temporal.workflow.getHandle(incidentWorkflowId(incidentId));
/** The entries alert events and moves make (paging decisions, which a reopen also makes, aside). */
const timeline = (incidentId: string) =>
  db()('timeline_entries')
    .where({ incident_id: incidentId })
    .whereIn('type', ['created', 'alert_attached', 'status_change'])
    .orderBy('seq')
    .select('seq', 'type', 'to_status', 'message');
const statusOf = async (incidentId: string) => (await db()('incidents').where({ id: incidentId }).first('status')).status as string;
const move = (incidentId: string, operation: LifecycleOperation) =>
  transitionIncident(
    { orm: f.stack.orm, temporal: f.stack.temporal, taskQueue: f.stack.taskQueue },
    { organizationId: f.ws.organizationId, incidentId, operation, actor: { type: 'system', id: null, via: 'test' } },
  );
const undelivered = async (incidentId: string) =>
  Number((await db()('ingest_outbox').where({ incident_id: incidentId }).whereNull('delivered_at').count({ n: '*' }))[0].n);
/** Every outbox row of the incident delivered again, as after a relay that could not mark them. */
async function redeliverAll(incidentId: string): Promise<void> {
  await db()('ingest_outbox').where({ incident_id: incidentId }).update({ delivered_at: null });
  f.stack.relay.kick();
  await waitFor(async () => (await undelivered(incidentId)) === 0, 30_000, 'the redelivery');
}
/** The latest run of the incident's workflow has finished (or, with `running`, is running). */
const waitForRun = (incidentId: string, state: 'RUNNING' | 'COMPLETED') =>
  waitFor(async () => (await handle(incidentId).describe()).status.name === state, 30_000, `the workflow to be ${state}`);

describe('events after a run completed', () => {
  let incidentId: string;
  let entriesAtClose: Array<{ seq: number; type: string }>;

  it('when every event of a closed incident is delivered again, then a new run applies none of them and the incident stays closed', async () => {
    incidentId = await alertmanager('late-1', 'firing', 'disk full');
    expect(await alertmanager('late-1', 'firing', 'disk still full')).toBe(incidentId);
    expect(await alertmanager('late-1', 'firing', 'disk really full')).toBe(incidentId);
    await alertmanager('late-1', 'resolved', 'disk full');
    await waitFor(async () => (await statusOf(incidentId)) === 'RESOLVED', 30_000, 'the sender to resolve it');
    await move(incidentId, 'close');
    await waitForRun(incidentId, 'COMPLETED');
    entriesAtClose = await timeline(incidentId);
    expect(entriesAtClose.filter((e) => e.type === 'alert_attached')).toHaveLength(2);

    await redeliverAll(incidentId);
    await waitForRun(incidentId, 'COMPLETED');
    expect(await timeline(incidentId)).toEqual(entriesAtClose);
    expect(await statusOf(incidentId)).toBe('CLOSED');
  });

  it('when a reopened incident gets its old events again, then it stays open and nothing is attached twice', async () => {
    await move(incidentId, 'reopen');
    expect(await statusOf(incidentId)).toBe('TRIGGERED');
    const afterReopen = await timeline(incidentId);
    expect(afterReopen).toHaveLength(entriesAtClose.length + 1);

    await redeliverAll(incidentId);
    // A later fact through the same signal path proves the redelivered batch was handled first.
    await handle(incidentId).signal(alertsReceivedSignal, { events: [{ eventId: randomUUID(), kind: 'attached', title: 'marker' }] });
    await waitFor(async () => (await timeline(incidentId)).some((e) => e.message === 'Alert attached: marker'), 30_000, 'the marker');
    const now = await timeline(incidentId);
    expect(now.slice(0, afterReopen.length)).toEqual(afterReopen);
    expect(now.slice(afterReopen.length).map((e) => e.message)).toEqual(['Alert attached: marker']);
    expect(await statusOf(incidentId)).toBe('TRIGGERED');
  });

  it('when a sender resolve accepted before a person reopened the incident arrives after the reopen, then it is ignored, and one accepted after it resolves', async () => {
    const { seq } = await handle(incidentId).query(incidentStateQuery);
    const reopenSeq = (await timeline(incidentId)).filter((e) => e.type === 'status_change' && e.to_status === 'TRIGGERED').at(-1)!.seq;
    await handle(incidentId).signal(alertsReceivedSignal, {
      events: [{ eventId: randomUUID(), kind: 'resolved', title: 'stale', acceptedAtSeq: reopenSeq - 1 }],
    });
    await handle(incidentId).signal(alertsReceivedSignal, { events: [{ eventId: randomUUID(), kind: 'attached', title: 'after stale' }] });
    await waitFor(async () => (await timeline(incidentId)).some((e) => e.message === 'Alert attached: after stale'), 30_000, 'the second marker');
    expect(await statusOf(incidentId)).toBe('TRIGGERED');
    // One entry for the marker; none for the stale resolve.
    expect((await handle(incidentId).query(incidentStateQuery)).seq).toBe(seq + 1);

    await handle(incidentId).signal(alertsReceivedSignal, {
      events: [{ eventId: randomUUID(), kind: 'resolved', title: 'current', acceptedAtSeq: reopenSeq }],
    });
    await waitFor(async () => (await statusOf(incidentId)) === 'RESOLVED', 30_000, 'the current resolve');
  });
});
