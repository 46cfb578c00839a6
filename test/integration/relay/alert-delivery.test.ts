import { readFileSync } from 'node:fs';
import path from 'node:path';
import { incidentStateQuery, incidentWorkflowId, type AlertReceived } from '../../../src/contracts/workflows';
import { knexOf } from '../../../src/db/knex';
import { createSource } from '../../../src/services/ingest/sources';
import { useStackWithWorkspace } from '../../support/fixture';
import { request } from '../../support/http';
import { waitFor } from '../../support/wait';

/**
 * Delivery of accepted events to incident workflows in batches: one `alertsReceived` signal per
 * incident per relay pass, one timeline write per run of attached alerts.
 */
const f = useStackWithWorkspace();
let ingestUrl: string;
beforeAll(async () => {
  ingestUrl = (
    await createSource(f.stack.orm, { organizationId: f.ws.organizationId, serviceId: f.ws.serviceId, name: 'storm', ingestBaseUrl: f.stack.urls.ingest })
  ).ingest_url;
});

const FIRING = JSON.parse(readFileSync(path.resolve(__dirname, '../../fixtures/native/alertmanager/firing.json'), 'utf8'));
/** One Alertmanager webhook carrying `titles.length` alerts with one fingerprint: one incident. */
const alertmanager = (fingerprint: string, titles: string[], status: 'firing' | 'resolved' = 'firing') =>
  request('POST', ingestUrl, {
    body: { ...FIRING, status, alerts: titles.map((summary) => ({ ...FIRING.alerts[0], status, fingerprint, annotations: { summary } })) },
  });

const db = () => knexOf(f.stack.orm);
const handle = (incidentId: string) => f.stack.temporal.workflow.getHandle(incidentWorkflowId(incidentId));
const attachedEntries = (incidentId: string) => db()('timeline_entries').where({ incident_id: incidentId, type: 'alert_attached' }).orderBy('seq');
const undelivered = async (incidentId: string) =>
  Number((await db()('ingest_outbox').where({ incident_id: incidentId }).whereNull('delivered_at').count({ n: '*' }))[0].n);
const waitForSeq = (incidentId: string, seq: number) =>
  waitFor(async () => (await handle(incidentId).query(incidentStateQuery)).seq === seq, 60_000, `workflow seq ${seq}`);

/** The `alertsReceived` signals in the workflow's history, as the events each carried. */
async function batchSignals(incidentId: string): Promise<AlertReceived[][]> {
  const history = await handle(incidentId).fetchHistory();
  return (history.events ?? [])
    .map((e) => e.workflowExecutionSignaledEventAttributes)
    .filter((s) => s?.signalName === 'alertsReceived')
    .map((s) => (JSON.parse(Buffer.from(s!.input!.payloads![0].data!).toString('utf8')) as { events: AlertReceived[] }).events);
}

describe('batched delivery to incident workflows', () => {
  const REQUESTS = 4;
  const PER_REQUEST = 150;
  const titles = Array.from({ length: REQUESTS * PER_REQUEST }, (_, i) => `storm ${i}`);
  let incidentId: string;

  it('when hundreds of events for one incident are accepted while the worker is stopped, then once it starts each lands exactly once, from a few signals', async () => {
    await f.stack.worker.stop();
    try {
      for (let r = 0; r < REQUESTS; r++) {
        const res = await alertmanager('storm-fp', titles.slice(r * PER_REQUEST, (r + 1) * PER_REQUEST));
        expect(res.status).toBe(202);
        incidentId ??= res.body.events[0].incident_id;
        expect(new Set(res.body.events.map((e: { incident_id: string }) => e.incident_id))).toEqual(new Set([incidentId]));
      }
      // Signals land in the history with no worker polling: the relay is done before it starts.
      await waitFor(async () => (await undelivered(incidentId)) === 0, 30_000, 'the outbox to drain');
    } finally {
      await f.stack.worker.start();
    }
    // `created` is seq 1, then one entry per attached alert and the escalation's paging decision
    // (its team has nobody to page), wherever it fell among them.
    await waitForSeq(incidentId, titles.length + 1);

    const entries = await attachedEntries(incidentId);
    expect(entries).toHaveLength(titles.length - 1);
    const decisions = await db()('timeline_entries').where({ incident_id: incidentId, type: 'paging_decision' });
    expect(decisions).toHaveLength(1);
    expect([...entries.map((e) => e.seq), decisions[0].seq].sort((a, b) => a - b)).toEqual(titles.map((_, i) => i + 2));
    expect(entries.map((e) => e.message)).toEqual(titles.slice(1).map((t) => `Alert attached: ${t}`));
    expect(await db()('incidents').where({ id: incidentId }).first()).toMatchObject({
      alert_count: titles.length,
      last_seq: titles.length + 1,
      status: 'TRIGGERED',
    });

    const signals = await batchSignals(incidentId);
    // At most one signal per relay pass, and a pass cannot see less than one whole request.
    expect(signals.length).toBeLessThanOrEqual(REQUESTS);
    expect(signals.flat().map((e) => e.title)).toEqual(titles);
  });

  it('when an already delivered batch is delivered again, then nothing changes', async () => {
    const before = await attachedEntries(incidentId);
    const signalsBefore = (await batchSignals(incidentId)).length;
    await db()('ingest_outbox').where({ incident_id: incidentId }).update({ delivered_at: null });
    await waitFor(async () => (await undelivered(incidentId)) === 0, 30_000, 'the redelivery');
    expect((await batchSignals(incidentId)).length).toBeGreaterThan(signalsBefore);

    // Signals are applied in order: once a later event is on the timeline, the redelivery was handled.
    expect((await alertmanager('storm-fp', ['after the redelivery'])).status).toBe(202);
    await waitForSeq(incidentId, titles.length + 2);
    const after = await attachedEntries(incidentId);
    expect(after.slice(0, -1)).toEqual(before);
    expect(after.at(-1)).toMatchObject({ seq: titles.length + 2, message: 'Alert attached: after the redelivery' });
    expect(await db()('incidents').where({ id: incidentId }).first()).toMatchObject({ alert_count: titles.length + 1, last_seq: titles.length + 2 });
  });

  it('when one request fires alerts and then resolves them, then one signal attaches them and resolves the incident, in that order', async () => {
    const res = await request('POST', ingestUrl, {
      body: {
        ...FIRING,
        alerts: [
          ...['first', 'second', 'third'].map((summary) => ({ ...FIRING.alerts[0], status: 'firing', fingerprint: 'one-shot', annotations: { summary } })),
          { ...FIRING.alerts[0], status: 'resolved', fingerprint: 'one-shot', annotations: { summary: 'third' } },
        ],
      },
    });
    expect(res.status).toBe(202);
    const id = res.body.events[0].incident_id;
    await waitFor(async () => (await handle(id).query(incidentStateQuery)).status === 'RESOLVED', 60_000, 'the incident to resolve');
    const timeline = await db()('timeline_entries').where({ incident_id: id }).orderBy('seq');
    expect(timeline.map((e) => [e.seq, e.type, e.to_status])).toEqual([
      [1, 'created', 'TRIGGERED'],
      [2, 'alert_attached', null],
      [3, 'alert_attached', null],
      [4, 'status_change', 'RESOLVED'],
    ]);
    expect((await batchSignals(id)).map((events) => events.map((e) => e.kind))).toEqual([['opened', 'attached', 'attached', 'resolved']]);
  });
});
