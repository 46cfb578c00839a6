import { randomBytes, randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { openOrm } from '../../../src/db/orm';
import { OutgoingWebhookDeliverer } from '../../../src/integrations/outgoing-webhooks/deliverer';
import { postJson } from '../../../src/services/targets';
import { createSealer } from '../../../src/services/sealing/seal';
import { dashboard, lastEmailTo, memberSession } from '../../support/dashboard';
import { request } from '../../support/http';
import { pagingService, responder, trigger } from '../../support/paging';
import { startTestStack, TEST_SECRET, type TestStack } from '../../support/stack';
import { startWebhookReceiver } from '../../support/webhook-receiver';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

let stack: TestStack;
beforeAll(async () => {
  // The receivers listen on 127.0.0.1.
  stack = await startTestStack({ env: { ALLOW_PRIVATE_TARGETS: 'true' } });
});
afterAll(() => stack?.stop());

const sealer = createSealer(TEST_SECRET);
const db = () => knexOf(stack.orm);

/** A workspace paging one responder by email, an ingestion URL of its service, and a subscription to `url`. */
async function subscribedWorkspace(url: string, opts: { eventTypes?: string[] } = {}) {
  const ws = await seedWorkspace(stack.orm);
  const paged = await responder(stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] }] }, stack.urls.ingest);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const id = randomUUID();
  await db()('outgoing_webhooks').insert({
    id,
    organization_id: ws.organizationId,
    url,
    event_types: opts.eventTypes ? JSON.stringify(opts.eventTypes) : null,
    secret_sealed: sealer.seal(secret),
  });
  return { ws, ingestUrl, secret, webhookId: id };
}

const acknowledge = (organizationId: string, incidentId: string, token: string) =>
  request('POST', `${stack.urls.app}/api/v1/organizations/${organizationId}/incidents/${incidentId}/acknowledge`, { token });

const deliveriesOf = (webhookId: string) => db()('feed_deliveries').where({ consumer: 'outgoing-webhooks', target_id: webhookId }).orderBy('lane_seq');

describe('outgoing webhook deliveries', () => {
  it('when a subscription is made through the API, then its test ping, its events and a redelivery reach the receiver signed with the secret shown at creation, and the log shows each', async () => {
    let secret: string | undefined;
    const receiver = await startWebhookReceiver({ secret: () => secret });
    try {
      const ws = await seedWorkspace(stack.orm);
      const paged = await responder(stack.orm, ws.organizationId, 'email');
      const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] }] }, stack.urls.ingest);
      const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');
      const api = (method: string, path: string, body?: unknown) => dashboard(stack.urls.app, method, path, { session, body });
      const created = await api('POST', '/outgoing-webhooks', { url: receiver.url, event_types: ['incident.triggered'] });
      expect(created.status).toBe(201);
      secret = created.body.data.secret;
      const hookId = created.body.data.id;

      expect((await api('POST', `/outgoing-webhooks/${hookId}/test`)).status).toBe(202);
      await waitFor(async () => receiver.received.some((r) => r.event.type === 'ping'), 10_000, 'the ping');
      const incidentId = await trigger(ingestUrl);
      const triggered = await waitFor(async () => receiver.received.find((r) => r.event.type === 'incident.triggered'), 20_000, 'the event');
      expect(triggered.event.incident).toMatchObject({ id: incidentId });

      const log = await api('GET', `/outgoing-webhooks/${hookId}/deliveries`);
      const delivery = log.body.data.find((d: { type: string }) => d.type === 'incident.triggered');
      expect(delivery).toMatchObject({
        event_id: triggered.id,
        attempts: 1,
        last_status_code: 200,
        last_error: null,
        latency_ms: expect.any(Number),
        delivered_at: expect.any(String),
        next_attempt_at: null,
      });
      expect((await api('POST', `/outgoing-webhooks/${hookId}/deliveries/${delivery.id}/redeliver`)).status).toBe(202);
      await waitFor(async () => receiver.received.filter((r) => r.id === triggered.id).length === 2, 10_000, 'the redelivery');
      expect(receiver.received.map((r) => r.event.type)).toEqual(['ping', 'incident.triggered', 'incident.triggered']);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('when an incident is triggered, paged and acknowledged, then the receiver gets each event once, in order, signed (verified by the standardwebhooks library), with the incident as the API shows it', async () => {
    let secret: string | undefined;
    const receiver = await startWebhookReceiver({ secret: () => secret });
    try {
      const sub = await subscribedWorkspace(receiver.url);
      secret = sub.secret;
      const incidentId = await trigger(sub.ingestUrl, 'Checkout is down');
      await waitFor(async () => receiver.received.some((r) => r.event.type === 'page.delivered'), 20_000, 'the page event');
      expect((await acknowledge(sub.ws.organizationId, incidentId, sub.ws.tokens.readWrite)).status).toBe(200);
      await waitFor(async () => receiver.received.some((r) => r.event.type === 'incident.acknowledged'), 20_000, 'the acknowledgement');

      const types = receiver.received.map((r) => r.event.type);
      expect(types.indexOf('incident.triggered')).toBe(0);
      expect(types.indexOf('incident.acknowledged')).toBe(types.length - 1);
      expect(types).toContain('page.delivered');
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(receiver.received.length);
      for (const r of receiver.received) expect(r.event.id).toBe(r.id);

      const acked = receiver.received.at(-1)!.event;
      expect(acked).toMatchObject({ type: 'incident.acknowledged', organization_id: sub.ws.organizationId, actor: { type: 'user', id: sub.ws.admin.id } });
      const shown = await request('GET', `${stack.urls.app}/api/v1/organizations/${sub.ws.organizationId}/incidents/${incidentId}`, {
        token: sub.ws.tokens.readOnly,
      });
      expect(acked.incident).toEqual(expect.objectContaining({ id: incidentId, status: 'ACKNOWLEDGED', number: shown.body.number ?? shown.body.data?.number }));
      expect(receiver.received[0].event.incident).toMatchObject({ id: incidentId, status: 'TRIGGERED', title: 'Checkout is down' });

      const log = await deliveriesOf(sub.webhookId);
      expect(log.every((d) => d.delivered_at !== null && d.attempts === 1 && d.last_status_code === 200 && d.latency_ms !== null)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('when an incident’s first delivery fails, then its later events wait behind it and arrive after its retry, in order', async () => {
    let secret: string | undefined;
    const receiver = await startWebhookReceiver({
      secret: () => secret,
      answer: (event, attempt) => (event.type === 'incident.triggered' && attempt === 1 ? 503 : 200),
    });
    try {
      const sub = await subscribedWorkspace(receiver.url, { eventTypes: ['incident.triggered', 'incident.acknowledged', 'incident.resolved'] });
      secret = sub.secret;
      const incidentId = await trigger(sub.ingestUrl);
      await waitFor(async () => receiver.requests >= 1, 20_000, 'the first attempt');
      expect((await acknowledge(sub.ws.organizationId, incidentId, sub.ws.tokens.readWrite)).status).toBe(200);
      // The acknowledgement is queued behind the failed event and not sent before its retry (5 s later).
      await waitFor(async () => (await deliveriesOf(sub.webhookId)).length === 2, 10_000, 'the acknowledgement queued');
      expect(receiver.received).toEqual([]);
      await waitFor(async () => receiver.received.length === 2, 20_000, 'both events');
      expect(receiver.received.map((r) => r.event.type)).toEqual(['incident.triggered', 'incident.acknowledged']);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      const [first] = await deliveriesOf(sub.webhookId);
      expect(first).toMatchObject({ attempts: 2, last_status_code: 200, last_error: null });
      expect(receiver.attempts.get(first.event_id)).toBe(2);
    } finally {
      await receiver.close();
    }
  });

  it('when a receiver answers 410 Gone, then the subscription is disabled at once, what it still had is given up, and the admins are emailed', async () => {
    const receiver = await startWebhookReceiver({ answer: () => 410 });
    try {
      const sub = await subscribedWorkspace(receiver.url);
      await trigger(sub.ingestUrl);
      await waitFor(async () => (await db()('outgoing_webhooks').where({ id: sub.webhookId }).first()).enabled === false, 20_000, 'the subscription disabled');
      const hook = await db()('outgoing_webhooks').where({ id: sub.webhookId }).first();
      expect(hook.disabled_reason).toBe('gone');
      const log = await deliveriesOf(sub.webhookId);
      expect(log[0]).toMatchObject({ attempts: 1, last_status_code: 410, delivered_at: null });
      expect(log.every((d) => d.parked_at !== null)).toBe(true);
      expect(receiver.requests).toBe(1);
      const mail = await waitFor(() => lastEmailTo(stack.orm, sub.ws.admin.email), 10_000, 'the email');
      expect(mail.subject).toContain('disabled');
      expect(mail.body).toContain('410');
      // A later incident is not sent to it.
      await trigger(sub.ingestUrl);
      await new Promise((r) => setTimeout(r, 1500));
      expect(receiver.requests).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it('when a subscription has been failing for three days, then its next failure disables it and emails the admins', async () => {
    const receiver = await startWebhookReceiver({ answer: () => 500 });
    try {
      const sub = await subscribedWorkspace(receiver.url, { eventTypes: ['incident.triggered'] });
      await db()('outgoing_webhooks')
        .where({ id: sub.webhookId })
        .update({ failing_since: new Date(Date.now() - 3 * 24 * 3_600_000 - 60_000) });
      await trigger(sub.ingestUrl);
      await waitFor(async () => (await db()('outgoing_webhooks').where({ id: sub.webhookId }).first()).enabled === false, 20_000, 'the subscription disabled');
      expect((await db()('outgoing_webhooks').where({ id: sub.webhookId }).first()).disabled_reason).toBe('failing');
      const mail = await waitFor(() => lastEmailTo(stack.orm, sub.ws.admin.email), 10_000, 'the email');
      expect(mail.body).toContain('3 days');
    } finally {
      await receiver.close();
    }
  });

  it('when a receiver answers with a redirect, then the redirect is not followed and the attempt failed with its status', async () => {
    const receiver = await startWebhookReceiver({ answer: () => 302 });
    try {
      const sub = await subscribedWorkspace(receiver.url, { eventTypes: ['incident.triggered'] });
      await trigger(sub.ingestUrl);
      const [row] = await waitFor(
        async () => {
          const rows = await deliveriesOf(sub.webhookId);
          return rows[0]?.attempts > 0 && rows;
        },
        20_000,
        'the attempt',
      );
      expect(row).toMatchObject({ last_status_code: 302, delivered_at: null, attempts: 1 });
      expect(row.last_error).toMatch(/redirect/);
      expect(row.next_attempt_at).not.toBeNull();
      expect(receiver.requests).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it('when two API processes deliver at once, then each event reaches the receiver once', async () => {
    let secret: string | undefined;
    const receiver = await startWebhookReceiver({ secret: () => secret });
    const secondOrm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 5);
    const second = new OutgoingWebhookDeliverer({
      orm: secondOrm,
      sealer,
      post: (url, o) => postJson(url, { ...o, allowPrivate: true }),
      logger: stack.logger,
      appUrl: stack.urls.app,
    });
    second.start(50);
    try {
      const sub = await subscribedWorkspace(receiver.url, { eventTypes: ['incident.triggered'] });
      secret = sub.secret;
      const incidents = await Promise.all(Array.from({ length: 30 }, (_, i) => trigger(sub.ingestUrl, `Disk full on host-${i}`)));
      await waitFor(async () => receiver.received.length >= incidents.length, 30_000, 'every event');
      await new Promise((r) => setTimeout(r, 1000));
      expect(receiver.received.length).toBe(incidents.length);
      expect(receiver.requests).toBe(incidents.length);
      expect(new Set(receiver.received.map((r) => r.event.incident!.id))).toEqual(new Set(incidents));
      expect(receiver.received.every((r) => r.verified)).toBe(true);
    } finally {
      await second.stop();
      await secondOrm.close();
      await receiver.close();
    }
  });
});
