import { knexOf } from '../../../src/db/knex';
import { setPlan } from '../../../src/services/workspace/workspaces';
import { addTeamMember } from '../../../src/services/workspace/team-members';
import { request } from '../../support/http';
import { apiKeyFor, expectEnvelopeError } from '../../support/api-key';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { addMember, seedWorkspace, type SeededWorkspace } from '../../support/workspace';

let stack: TestStack;
let ws: SeededWorkspace;
let adminKey: string;
const v1 = (path: string) => `${stack.urls.apiKey}/v1${path}`;

beforeAll(async () => {
  stack = await startTestStack();
  ws = await seedWorkspace(stack.orm);
  adminKey = (await apiKeyFor(stack.orm, ws.organizationId, ws.admin)).key;
});
afterAll(() => stack.stop());

describe('/v1/webhooks', () => {
  it('when an admin creates a webhook, then the answer holds its record and signing secret once; reads show the record without the secret', async () => {
    const created = await request('POST', v1('/webhooks'), {
      token: adminKey,
      body: { name: 'Prod alerts', channels: ['sms', 'email'], description: 'from Grafana' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ success: true, message: expect.any(String) });
    const hook = created.body.data;
    expect(hook).toMatchObject({
      name: 'Prod alerts',
      alias: 'prod-alerts',
      description: 'from Grafana',
      status: 'ACTIVE',
      channels: ['sms', 'email'],
      notification_types: ['SMS', 'EMAIL'],
      statistics: { total_calls: 0, successful_calls: 0, failed_calls: 0 },
      service_id: ws.serviceId,
      signed: true,
      ip_allowlist: [],
    });
    expect(hook.signing_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(hook.webhook_url).toMatch(new RegExp(`^${stack.urls.ingest}/[A-Za-z0-9_-]+$`));
    expect(hook.receiver_url).toBe(`${stack.urls.apiKey}/webhook/${hook.id}`);
    expect(hook.routing_key).toBe((await knexOf(stack.orm)('alert_sources').where({ id: hook.id }).first()).routing_key);
    expect(hook.routing_key).toMatch(/^[0-9a-f]{32}$/);

    const read = await request('GET', v1(`/webhooks/${hook.id}`), { token: adminKey });
    expect(read.status).toBe(200);
    const { signing_secret: _secret, ...record } = hook;
    expect(read.body.data).toEqual(record);
    expect(JSON.stringify(read.body)).not.toContain(hook.signing_secret);

    const list = await request('GET', v1('/webhooks'), { token: adminKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).toContain(hook.id);
    expect(list.body.meta).toMatchObject({ total: list.body.data.length, limit: 50, offset: 0 });
  });

  it('when the webhook URL is posted to, then it ingests like any ingestion URL, and every call, refused ones too, counts in its statistics', async () => {
    const hook = (await request('POST', v1('/webhooks'), { token: adminKey, body: { name: 'via url', channels: ['email'] } })).body.data;
    const res = await request('POST', hook.webhook_url, { body: { title: 'through the ingestion URL' } });
    expect(res.status).toBe(202);
    const alert = await knexOf(stack.orm)('alerts').where({ id: res.body.event_id }).first();
    expect(alert.source_id).toBe(hook.id);
    expect((await request('POST', hook.webhook_url, { body: { severity: 'high' } })).status).toBe(400);
    const stats = await waitFor(
      async () => {
        const s = (await request('GET', v1(`/webhooks/${hook.id}`), { token: adminKey })).body.data.statistics;
        return s.total_calls >= 2 ? s : undefined;
      },
      5000,
      'two calls counted',
    );
    expect(stats).toEqual({ total_calls: 2, successful_calls: 1, failed_calls: 1 });
  });

  it('when a body is invalid, then 400 in the API-key envelope and nothing is created', async () => {
    const before = Number((await knexOf(stack.orm)('alert_sources').where({ organization_id: ws.organizationId }).count({ n: '*' }))[0].n);
    for (const body of [
      { name: 'ab', channels: ['sms'] },
      { name: 'fine name', channels: [] },
      { name: 'fine name', channels: ['pager'] },
      { name: 'fine name', channels: ['sms'], ip_allowlist: ['10.0.0.0/33'] },
      { name: 'fine name', channels: ['sms'], colour: 'red' },
    ]) {
      const res = await request('POST', v1('/webhooks'), { token: adminKey, body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expectEnvelopeError(res.body, 'invalid_request');
    }
    expect(Number((await knexOf(stack.orm)('alert_sources').where({ organization_id: ws.organizationId }).count({ n: '*' }))[0].n)).toBe(before);
  });

  it('when a webhook is updated, paused and deleted, then reads follow, and a deleted one is gone while its incidents remain', async () => {
    const hook = (await request('POST', v1('/webhooks'), { token: adminKey, body: { name: 'to change', channels: ['sms'] } })).body.data;
    const fired = await request('POST', hook.webhook_url, { body: { title: 'before delete' } });
    expect(fired.status).toBe(202);

    const updated = await request('PUT', v1(`/webhooks/${hook.id}`), {
      token: adminKey,
      body: { name: 'changed', channels: ['voice', 'push'], ip_allowlist: ['192.0.2.0/24', '2001:db8::/32'] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      name: 'changed',
      channels: ['voice', 'push'],
      notification_types: ['CALL', 'PUSH_NOTIF'],
      ip_allowlist: ['192.0.2.0/24', '2001:db8::/32'],
    });

    const paused = await request('PUT', v1(`/webhooks/${hook.id}`), { token: adminKey, body: { status: 'PAUSED' } });
    expect(paused.body.data.status).toBe('PAUSED');
    const refused = await request('POST', hook.webhook_url, { body: { title: 'while paused' } });
    expect(refused.status).toBe(423);
    expect(await knexOf(stack.orm)('alerts').where({ source_id: hook.id, title: 'while paused' })).toHaveLength(0);

    const deleted = await request('DELETE', v1(`/webhooks/${hook.id}`), { token: adminKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: hook.id, deleted: true });
    expect((await request('GET', v1(`/webhooks/${hook.id}`), { token: adminKey })).status).toBe(404);
    expect((await request('POST', hook.webhook_url, { body: { title: 'after delete' } })).status).toBe(404);
    expect((await request('POST', hook.receiver_url, { body: { title: 'after delete' } })).status).toBe(404);
    expect(await knexOf(stack.orm)('incidents').where({ id: fired.body.incident_id })).toHaveLength(1);
  });

  it('when a member or another team’s manager changes webhooks, then 403; the owning team’s manager may; any member reads', async () => {
    const member = await apiKeyFor(stack.orm, ws.organizationId, 'MEMBER');
    const outsider = await apiKeyFor(stack.orm, ws.organizationId, 'TEAM_MANAGER');
    const managerUser = await addMember(stack.orm, ws.organizationId, 'TEAM_MANAGER');
    await addTeamMember(stack.orm, { teamId: ws.teamId, email: managerUser.email });
    const manager = await apiKeyFor(stack.orm, ws.organizationId, managerUser);
    const body = { name: 'by role', channels: ['email'] };
    for (const key of [member.key, outsider.key]) {
      const res = await request('POST', v1('/webhooks'), { token: key, body });
      expect(res.status).toBe(403);
      expectEnvelopeError(res.body, 'forbidden');
    }
    const created = await request('POST', v1('/webhooks'), { token: manager.key, body });
    expect(created.status).toBe(201);
    expect((await request('GET', v1(`/webhooks/${created.body.data.id}`), { token: member.key })).status).toBe(200);
    expect((await request('DELETE', v1(`/webhooks/${created.body.data.id}`), { token: member.key })).status).toBe(403);
  });

  it('when the plan’s source limit is reached, then 403 plan_limit_reached and nothing is created', async () => {
    const free = await seedWorkspace(stack.orm);
    await setPlan(stack.orm, free.organizationId, 'FREE');
    const key = (await apiKeyFor(stack.orm, free.organizationId, free.admin)).key;
    for (let i = 0; i < 3; i++)
      expect((await request('POST', v1('/webhooks'), { token: key, body: { name: `hook ${i}`, channels: ['email'] } })).status).toBe(201);
    const over = await request('POST', v1('/webhooks'), { token: key, body: { name: 'one too many', channels: ['email'] } });
    expect(over.status).toBe(403);
    expectEnvelopeError(over.body, 'plan_limit_reached');
    expect((await request('GET', v1('/webhooks'), { token: key })).body.meta.total).toBe(3);
  });

  it('when a signing secret is rotated, then the new one is shown once and differs', async () => {
    const hook = (await request('POST', v1('/webhooks'), { token: adminKey, body: { name: 'rotating', channels: ['email'] } })).body.data;
    const rotated = await request('POST', v1(`/webhooks/${hook.id}/rotate-secret`), { token: adminKey });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.signing_secret).toMatch(/^whsec_/);
    expect(rotated.body.data.signing_secret).not.toBe(hook.signing_secret);
  });

  it('when paging is out of range, then 400 naming the parameter', async () => {
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc']) {
      const res = await request('GET', v1(`/webhooks?${q}`), { token: adminKey });
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
      expect(res.body.error).toMatch(/limit|offset/);
    }
  });
});
