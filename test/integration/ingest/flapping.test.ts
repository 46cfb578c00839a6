import { readFileSync } from 'node:fs';
import path from 'node:path';
import { knexOf } from '../../../src/db/knex';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { request } from '../../support/http';
import { pagingService, responder, startPagingStack, statusOf } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { seedWorkspace } from '../../support/workspace';
import { waitFor } from '../../support/wait';

/**
 * A flapping check: its alert fires, resolves and fires again, back to back, faster than the
 * workflows apply them. Whatever the order, a firing alert ends on an open incident that paged.
 */
let stack: TestStack;
let twilio: TwilioFake;
let ingestUrl: string;
let phone: string;

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
  const ws = await seedWorkspace(stack.orm);
  const person = await responder(stack.orm, ws.organizationId, 'sms');
  phone = person.address;
  ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest);
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

const FIRING = JSON.parse(readFileSync(path.resolve(__dirname, '../../fixtures/native/alertmanager/firing.json'), 'utf8'));
type AlertStatus = 'firing' | 'resolved';
const alert = (fingerprint: string, status: AlertStatus, summary = `check ${fingerprint}`) => ({
  ...FIRING.alerts[0],
  status,
  fingerprint,
  annotations: { summary },
});

/** One Alertmanager webhook; returns the incident of each of its alerts. */
async function alertmanager(...alerts: Array<[string, AlertStatus]>): Promise<Array<string | null>> {
  const res = await request('POST', ingestUrl, {
    body: { ...FIRING, status: alerts.some(([, s]) => s === 'firing') ? 'firing' : 'resolved', alerts: alerts.map(([fp, s]) => alert(fp, s)) },
  });
  expect(res.status).toBe(202);
  // One alert answers as one event; several as `events`.
  const events = (res.body.events ?? [res.body]) as Array<{ incident_id: string | null }>;
  return events.map((e) => e.incident_id);
}

const db = () => knexOf(stack.orm);
const pagesOf = async (incidentId: string) => Number((await db()('notifications').where({ incident_id: incidentId, status: 'sent' }).count({ n: '*' }))[0].n);
const waitForStatus = (incidentId: string, status: string) =>
  waitFor(async () => (await statusOf(stack.orm, incidentId)) === status, 30_000, `incident ${incidentId} to be ${status}`);
const waitForPage = (incidentId: string) => waitFor(async () => (await pagesOf(incidentId)) > 0, 30_000, `a page for ${incidentId}`);
/** The key's alerts still firing, with their incidents' statuses. */
const firingAlertsOf = (fingerprint: string) =>
  // Native senders' keys are kept under the sender's name.
  db()('alerts as a')
    .join('incidents as i', 'i.id', 'a.incident_id')
    .where({ 'a.dedup_key': `alertmanager:${fingerprint}`, 'a.status': 'ACTIVE' })
    .select('a.incident_id', 'i.status');

describe('flapping alerts', () => {
  it('when an alert that paged resolves and fires again back to back, then the re-fire opens a new incident that pages, and the first one resolves', async () => {
    const [first] = await alertmanager(['flap-1', 'firing']);
    await waitForPage(first!);
    // Both before any workflow applies the resolve: the projection still says TRIGGERED.
    const [resolvedOn] = await alertmanager(['flap-1', 'resolved']);
    const [refired] = await alertmanager(['flap-1', 'firing']);
    expect(resolvedOn).toBe(first);
    expect(refired).not.toBe(first);
    await waitForStatus(first!, 'RESOLVED');
    await waitForPage(refired!);
    expect(await statusOf(stack.orm, refired!)).toBe('TRIGGERED');
    expect(await firingAlertsOf('flap-1')).toEqual([{ incident_id: refired, status: 'TRIGGERED' }]);
  });

  it('when the resolve and the re-fire arrive while no workflow is running, then once the worker is back the re-fire still ends on an open incident that paged', async () => {
    const [first] = await alertmanager(['flap-2', 'firing']);
    await waitForPage(first!);
    await stack.worker.stop();
    let refired: string | null;
    try {
      await alertmanager(['flap-2', 'resolved']);
      [refired] = await alertmanager(['flap-2', 'firing']);
      // The relay delivers both signals; nothing applies them yet.
      await waitFor(
        async () => Number((await db()('ingest_outbox').whereIn('incident_id', [first, refired]).whereNull('delivered_at').count({ n: '*' }))[0].n) === 0,
        30_000,
        'the outbox to drain',
      );
    } finally {
      await stack.worker.start();
    }
    await waitForStatus(first!, 'RESOLVED');
    await waitForPage(refired!);
    expect(await firingAlertsOf('flap-2')).toEqual([{ incident_id: refired!, status: 'TRIGGERED' }]);
  });

  it('when the alert fires again before its resolve arrives, then the resolve resolves both alerts and the incident, and nothing is left firing', async () => {
    const [first] = await alertmanager(['flap-3', 'firing']);
    const [again] = await alertmanager(['flap-3', 'firing']);
    expect(again).toBe(first);
    await alertmanager(['flap-3', 'resolved']);
    await waitForStatus(first!, 'RESOLVED');
    expect(await firingAlertsOf('flap-3')).toEqual([]);
  });

  it('when one webhook carries the resolve and then the re-fire, then the re-fire opens a new incident', async () => {
    const [first] = await alertmanager(['flap-4', 'firing']);
    const [resolvedOn, refired] = await alertmanager(['flap-4', 'resolved'], ['flap-4', 'firing']);
    expect(resolvedOn).toBe(first);
    expect(refired).not.toBe(first);
    await waitForStatus(first!, 'RESOLVED');
    await waitForPage(refired!);
  });

  it('when resolves and re-fires of one key race in parallel webhooks, then every firing alert ends on one open incident that paged', async () => {
    await alertmanager(['flap-5', 'firing']);
    await Promise.all(Array.from({ length: 12 }, (_, i) => alertmanager(['flap-5', i % 2 ? 'firing' : 'resolved'])));
    await alertmanager(['flap-5', 'firing']); // the sender's last word: firing
    const firing = await firingAlertsOf('flap-5');
    const incidents = new Set(firing.map((a) => a.incident_id));
    expect(incidents.size).toBe(1);
    const [open] = incidents;
    await waitForPage(open);
    // Let every queued resolve land: the incident the firing alerts are on stays open.
    await waitFor(async () => Number((await db()('ingest_outbox').whereNull('delivered_at').count({ n: '*' }))[0].n) === 0, 30_000, 'the outbox to drain');
    await waitFor(
      async () => {
        const resolving = await db()('incidents')
          .where({ dedup_key: 'alertmanager:flap-5' })
          .whereNot({ id: open })
          .whereIn('status', ['TRIGGERED'])
          .count({ n: '*' });
        return Number(resolving[0].n) === 0;
      },
      30_000,
      'the other incidents of the key to resolve',
    );
    expect(await statusOf(stack.orm, open)).toBe('TRIGGERED');
    expect(twilio.requests.some((r) => r.params.To === phone)).toBe(true);
  });
});
