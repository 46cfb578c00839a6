import { readFileSync } from 'node:fs';
import path from 'node:path';
import { knexOf } from '../../../src/db/knex';
import { createSource } from '../../../src/services/ingest/sources';
import { incidentWorkflowId } from '../../../src/contracts/workflows';
import { request } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

/**
 * AUTO_CLOSE_HOURS through the real stack: the API and the outbox relay give it to the
 * workflows they start, and a RESOLVED incident closes by itself, on its projection and timeline.
 * 0.0005 h is 1.8 s, rounded to 2 s.
 */
let stack: TestStack;
let ws: SeededWorkspace;
beforeAll(async () => {
  stack = await startTestStack({ env: { AUTO_CLOSE_HOURS: '0.0005' } });
  ws = await seedWorkspace(stack.orm);
});
afterAll(() => stack.stop());

const url = (p: string) => `${stack.urls.app}/api/v1/organizations/${ws.organizationId}${p}`;
const db = () => knexOf(stack.orm);
const incident = (id: string) => db()('incidents').where({ id }).first();
const lastEntry = (id: string) => db()('timeline_entries').where({ incident_id: id }).orderBy('seq', 'desc').first();
const closedEntries = async (id: string) => (await db()('timeline_entries').where({ incident_id: id, to_status: 'CLOSED' })).length;
const completed = async (id: string) => (await stack.temporal.workflow.getHandle(incidentWorkflowId(id)).describe()).status.name === 'COMPLETED';

const FIRING = JSON.parse(readFileSync(path.resolve(__dirname, '../../fixtures/native/alertmanager/firing.json'), 'utf8'));
const alertmanager = (ingestUrl: string, fingerprint: string, status: 'firing' | 'resolved') =>
  request('POST', ingestUrl, { body: { ...FIRING, status, alerts: [{ ...FIRING.alerts[0], status, fingerprint, annotations: { summary: 'auto-close' } }] } });

describe('auto-close through the stack (AUTO_CLOSE_HOURS=0.0005)', () => {
  it('when the sender resolves its alert, then the incident closes by itself: projection CLOSED, timeline says so as the system, workflow completed', async () => {
    const ingestUrl = (
      await createSource(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name: 'am', ingestBaseUrl: stack.urls.ingest })
    ).ingest_url;
    const fired = await alertmanager(ingestUrl, 'auto-close-1', 'firing');
    expect(fired.status).toBe(202);
    const id = fired.body.incident_id;
    // The relay started the workflow (with AUTO_CLOSE_HOURS in its input).
    await waitFor(() => stack.temporal.workflow.getHandle(incidentWorkflowId(id)).describe(), 15_000, 'the workflow');
    expect((await alertmanager(ingestUrl, 'auto-close-1', 'resolved')).status).toBe(202);

    await waitFor(async () => (await incident(id))?.status === 'CLOSED', 20_000, 'the automatic close');
    const row = await incident(id);
    expect(row.resolved_at).not.toBeNull();
    expect(Date.parse(row.closed_at) - Date.parse(row.resolved_at)).toBeGreaterThanOrEqual(2000);
    expect(await lastEntry(id)).toMatchObject({
      type: 'status_change',
      from_status: 'RESOLVED',
      to_status: 'CLOSED',
      actor_type: 'system',
      actor_id: null,
      via: 'auto_close',
      message: 'Closed automatically after 2 s (RESOLVED → CLOSED)',
    });
    await waitFor(() => completed(id), 10_000, 'the workflow to complete');
  });

  it('when the worker is down as the deadline passes, then the timer fires once a worker is back and closes it once', async () => {
    const created = await request('POST', url('/incidents'), {
      token: ws.tokens.readWrite,
      body: { title: 'restart me', severity: 'HIGH', owning_team_id: ws.teamId },
    });
    const id = created.body.data.id;
    expect((await request('POST', url(`/incidents/${id}/resolve`), { token: ws.tokens.readWrite })).body.data.status).toBe('RESOLVED');
    await stack.worker.stop();
    await sleep(3000); // past the 2 s deadline, with no worker
    expect((await incident(id)).status).toBe('RESOLVED');

    await stack.worker.start();
    await waitFor(async () => (await incident(id))?.status === 'CLOSED', 20_000, 'the automatic close after the restart');
    await waitFor(() => completed(id), 10_000, 'the workflow to complete');
    expect(await closedEntries(id)).toBe(1);
    expect((await lastEntry(id)).via).toBe('auto_close');
  });

  it('when a person reopens it before the deadline, then it stays open past it', async () => {
    const created = await request('POST', url('/incidents'), {
      token: ws.tokens.readWrite,
      body: { title: 'reopen me', severity: 'LOW', owning_team_id: ws.teamId },
    });
    const id = created.body.data.id;
    await request('POST', url(`/incidents/${id}/resolve`), { token: ws.tokens.readWrite });
    expect((await request('POST', url(`/incidents/${id}/reopen`), { token: ws.tokens.readWrite })).body.data.status).toBe('TRIGGERED');
    await sleep(3000);

    expect((await incident(id)).status).toBe('TRIGGERED');
    expect(await closedEntries(id)).toBe(0);
    expect(await completed(id)).toBe(false);
  });
});
