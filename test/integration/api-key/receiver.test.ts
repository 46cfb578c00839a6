import { knexOf } from '../../../src/db/knex';
import { signBody } from '../../../src/domain/inbound-webhook-signature';
import { request } from '../../support/http';
import { apiKeyFor, expectEnvelopeError } from '../../support/api-key';
import { sendRaw } from '../../support/raw-http';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

let stack: TestStack;
let ws: SeededWorkspace;
let key: string;
const v1 = (path: string) => `${stack.urls.apiKey}/v1${path}`;

beforeAll(async () => {
  // 127.0.0.1 is a trusted proxy here: its X-Forwarded-For tells the sender's address (IPv6 cases).
  stack = await startTestStack({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
  ws = await seedWorkspace(stack.orm);
  key = (await apiKeyFor(stack.orm, ws.organizationId, ws.admin)).key;
});
afterAll(() => stack.stop());

async function webhook(body: Record<string, unknown> = {}) {
  const res = await request('POST', v1('/webhooks'), { token: key, body: { name: 'receiver test', channels: ['sms', 'email'], ...body } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; receiver_url: string; signing_secret: string | null };
}

const alertsOf = (id: string) => knexOf(stack.orm)('alerts').where({ source_id: id });
/** The webhook's statistics once `total` calls are counted (they are written once a second). */
const statsAfter = (id: string, total: number) =>
  waitFor(
    async () => {
      const stats = (await request('GET', v1(`/webhooks/${id}`), { token: key })).body.data.statistics;
      return stats.total_calls >= total ? stats : undefined;
    },
    5000,
    `${total} calls counted`,
  );

describe('POST /webhook/{webhook_id}', () => {
  it('when a Form B body is signed with the secret, then 202 and the alert keeps tags, url, source and message; the incident pages by severity', async () => {
    const hook = await webhook();
    const raw = JSON.stringify({
      title: 'Disk full',
      message: 'db-1 at 99%',
      severity: 'warning',
      source: 'grafana',
      tags: { host: 'db-1', env: 'prod' },
      url: 'https://grafana.example/d/1',
    });
    const res = await sendRaw('POST', hook.receiver_url, { body: raw, headers: { 'X-Service-Signature': signBody(hook.signing_secret!, raw) } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ success: true, data: { event_id: expect.any(String), incident_id: expect.any(String), duplicate: false } });
    const alert = await knexOf(stack.orm)('alerts').where({ id: res.body.data.event_id }).first();
    expect(alert).toMatchObject({
      title: 'Disk full',
      message: 'db-1 at 99%',
      severity: 'MEDIUM',
      sender: 'form-b',
      tags: { host: 'db-1', env: 'prod' },
      url: 'https://grafana.example/d/1',
    });
    expect(alert.metadata).toMatchObject({ source: 'grafana' });
    // Visible on the incident too: the customer API's incident shows its alerts, and /v1/alerts filters by incident.
    const shown = {
      id: alert.id,
      title: 'Disk full',
      message: 'db-1 at 99%',
      severity: 'medium',
      source: 'grafana',
      tags: { host: 'db-1', env: 'prod' },
      url: 'https://grafana.example/d/1',
      webhook_id: hook.id,
    };
    const incident = await request('GET', `${stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents/${res.body.data.incident_id}`, {
      token: ws.tokens.readOnly,
    });
    expect(incident.body.data.alerts).toEqual([expect.objectContaining(shown)]);
    const listed = await request('GET', v1(`/alerts?incident_id=${res.body.data.incident_id}`), { token: key });
    expect(listed.body.data).toEqual([expect.objectContaining(shown)]);
    expect(await statsAfter(hook.id, 1)).toEqual({ total_calls: 1, successful_calls: 1, failed_calls: 0 });
  });

  it('when the severity is missing, then it is info; an unknown one is 400 naming the allowed ones', async () => {
    const hook = await webhook({ signed: false });
    const ok = await sendRaw('POST', hook.receiver_url, { body: JSON.stringify({ title: 'FYI' }) });
    expect(ok.status).toBe(202);
    expect((await knexOf(stack.orm)('alerts').where({ id: ok.body.data.event_id }).first()).severity).toBe('INFO');
    const bad = await sendRaw('POST', hook.receiver_url, { body: JSON.stringify({ title: 'x', severity: 'apocalyptic' }) });
    expect(bad.status).toBe(400);
    expectEnvelopeError(bad.body, 'invalid_request');
    expect(bad.body.error).toMatch(/critical, warning, info/);
    const untitled = await sendRaw('POST', hook.receiver_url, { body: JSON.stringify({ message: 'no title' }) });
    expect(untitled.status).toBe(400);
    expect(await alertsOf(hook.id)).toHaveLength(1);
  });

  it('when the signature is missing, wrong, over a body altered by one byte, or from before a rotation, then 401 and nothing but the failed call is stored', async () => {
    const hook = await webhook();
    const raw = JSON.stringify({ title: 'signed', severity: 'critical' });
    const good = signBody(hook.signing_secret!, raw);
    const altered = raw.replace('signed', 'signeD');
    const attempts: Array<{ body: string; headers: Record<string, string> }> = [
      { body: raw, headers: {} },
      { body: raw, headers: { 'X-Service-Signature': 'sha256=' + '0'.repeat(64) } },
      { body: raw, headers: { 'X-Service-Signature': good.slice(0, -1) } },
      { body: altered, headers: { 'X-Service-Signature': good } },
    ];
    for (const attempt of attempts) {
      const res = await sendRaw('POST', hook.receiver_url, attempt);
      expect(res.status).toBe(401);
      expectEnvelopeError(res.body, 'invalid_signature');
    }
    const rotated = (await request('POST', v1(`/webhooks/${hook.id}/rotate-secret`), { token: key })).body.data.signing_secret;
    expect((await sendRaw('POST', hook.receiver_url, { body: raw, headers: { 'X-Service-Signature': good } })).status).toBe(401);
    expect(await alertsOf(hook.id)).toHaveLength(0);
    expect((await sendRaw('POST', hook.receiver_url, { body: raw, headers: { 'X-Service-Signature': signBody(rotated, raw) } })).status).toBe(202);
    expect(await statsAfter(hook.id, 6)).toEqual({ total_calls: 6, successful_calls: 1, failed_calls: 5 });
  });

  it('when the sender is outside the IPv4 allowlist, then 403 and nothing is stored; inside it, accepted', async () => {
    const hook = await webhook({ signed: false, ip_allowlist: ['127.0.0.2/32'] });
    const body = JSON.stringify({ title: 'from where?' });
    const outside = await sendRaw('POST', hook.receiver_url, { body, localAddress: '127.0.0.3' });
    expect(outside.status).toBe(403);
    expectEnvelopeError(outside.body, 'ip_not_allowed');
    expect(await alertsOf(hook.id)).toHaveLength(0);
    expect((await sendRaw('POST', hook.receiver_url, { body, localAddress: '127.0.0.2' })).status).toBe(202);
  });

  it('when a trusted proxy forwards for an IPv6 sender, then the IPv6 allowlist decides, and a hop the client wrote itself is not believed', async () => {
    const hook = await webhook({ signed: false, ip_allowlist: ['2001:db8:1::/48'] });
    const body = JSON.stringify({ title: 'via proxy' });
    const inside = await sendRaw('POST', hook.receiver_url, { body, headers: { 'X-Forwarded-For': '2001:db8:1::7', 'X-Forwarded-Proto': 'https' } });
    expect(inside.status).toBe(202);
    const outside = await sendRaw('POST', hook.receiver_url, { body, headers: { 'X-Forwarded-For': '2001:db8:2::7', 'X-Forwarded-Proto': 'https' } });
    expect(outside.status).toBe(403);
    // The client claims an allowed address; the proxy appended the real one.
    const spoofed = await sendRaw('POST', hook.receiver_url, {
      body,
      headers: { 'X-Forwarded-For': '2001:db8:1::7, 2001:db8:9::1', 'X-Forwarded-Proto': 'https' },
    });
    expect(spoofed.status).toBe(403);
    expect(await alertsOf(hook.id)).toHaveLength(1);
  });

  it('when an Idempotency-Key is replayed, then 200 duplicate with the same ids; with another body, 409; exactly as on ingestion', async () => {
    const hook = await webhook({ signed: false });
    const headers = { 'Idempotency-Key': 'form-b-once' };
    const first = await sendRaw('POST', hook.receiver_url, { body: JSON.stringify({ title: 'once' }), headers });
    expect(first.status).toBe(202);
    const again = await sendRaw('POST', hook.receiver_url, { body: JSON.stringify({ title: 'once' }), headers });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ event_id: first.body.data.event_id, incident_id: first.body.data.incident_id, duplicate: true });
    const conflict = await sendRaw('POST', hook.receiver_url, { body: JSON.stringify({ title: 'different' }), headers });
    expect(conflict.status).toBe(409);
    expectEnvelopeError(conflict.body, 'idempotency_conflict');
    expect(await alertsOf(hook.id)).toHaveLength(1);
  });

  it('when the webhook is paused, then its senders hear 423 and nothing is stored; resumed, it takes alerts again', async () => {
    const hook = await webhook({ signed: false });
    await request('PUT', v1(`/webhooks/${hook.id}`), { token: key, body: { status: 'PAUSED' } });
    const paused = await sendRaw('POST', hook.receiver_url, { body: JSON.stringify({ title: 'paused' }) });
    expect(paused.status).toBe(423);
    expectEnvelopeError(paused.body, 'webhook_paused');
    expect(await alertsOf(hook.id)).toHaveLength(0);
    await request('PUT', v1(`/webhooks/${hook.id}`), { token: key, body: { status: 'ACTIVE' } });
    expect((await sendRaw('POST', hook.receiver_url, { body: JSON.stringify({ title: 'resumed' }) })).status).toBe(202);
  });

  it('when a native payload (Alertmanager) is posted, then it is detected as on the ingestion URL', async () => {
    const hook = await webhook({ signed: false });
    const body = JSON.stringify({
      version: '4',
      status: 'firing',
      receiver: 'klaxon',
      groupKey: 'g',
      truncatedAlerts: 0,
      groupLabels: {},
      commonLabels: {},
      commonAnnotations: {},
      externalURL: 'http://am',
      alerts: [
        {
          status: 'firing',
          labels: { alertname: 'HighLatency', severity: 'critical' },
          annotations: { summary: 'p99 high' },
          startsAt: new Date().toISOString(),
          endsAt: '0001-01-01T00:00:00Z',
          generatorURL: 'http://prom',
          fingerprint: 'fp-receiver',
        },
      ],
    });
    const res = await sendRaw('POST', hook.receiver_url, { body });
    expect(res.status).toBe(202);
    const [alert] = await alertsOf(hook.id);
    expect(alert).toMatchObject({ sender: 'alertmanager', severity: 'CRITICAL' });
  });

  it('when the webhook is unknown or the body is not JSON, then 404 and 415/400', async () => {
    expect((await sendRaw('POST', `${stack.urls.apiKey}/webhook/00000000-0000-4000-8000-000000000000`, { body: '{"title":"x"}' })).status).toBe(404);
    expect((await sendRaw('POST', `${stack.urls.apiKey}/webhook/not-a-uuid`, { body: '{"title":"x"}' })).status).toBe(404);
    const hook = await webhook({ signed: false });
    expect((await sendRaw('POST', hook.receiver_url, { body: 'title=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
    const broken = await sendRaw('POST', hook.receiver_url, { body: '{"title":' });
    expect(broken.status).toBe(400);
    expectEnvelopeError(broken.body, 'invalid_request');
  });
});
