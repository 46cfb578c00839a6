import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { addContactMethod } from '../../../src/services/paging/contacts';
import { addNotificationRule } from '../../../src/services/paging/notification-rules';
import { auditLog, catalogWorkspace, catalogWorkspaceWithService, ROLE_TABLE, type CatalogWorkspace } from '../../support/catalog';
import { ALL_ROLES, dashboardFixture, expectDashboardError, memberSession, type DashboardSession } from '../../support/dashboard';
import { request } from '../../support/http';
import { apiKeyFor } from '../../support/api-key';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace, tokenFor } from '../../support/workspace';
import { startSendgridFake, type SendgridFake } from '../../../src/integrations/sendgrid/testing/wire-fake';
import { startTwilioFake, type TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';

/**
 * The spec's dashboard webhook routes. The file's stack has no provider: every channel's test
 * notification lands in the dev inbox; the last block starts a second stack with Twilio and
 * SendGrid pointed at their wire fakes.
 */
const fx = dashboardFixture();
const { api } = fx;
let ws: CatalogWorkspace;
let serviceId: string;

beforeAll(async () => {
  ({ ws, serviceId } = await catalogWorkspaceWithService(fx.stack, 'Checkout'));
});

const db = () => knexOf(fx.stack.orm);
const admin = () => ws.as.ACCOUNT_ADMIN;
const liveCount = async (organizationId = ws.organizationId) =>
  Number((await db()('alert_sources').where({ organization_id: organizationId }).whereIn('status', ['ACTIVE', 'PAUSED']).count({ n: '*' }))[0].n);
const inbox = (to: string) => db()('dev_deliveries').where({ to }).orderBy('created_at');
const inboxCount = async () => Number((await db()('dev_deliveries').count({ n: '*' }))[0].n);

// The test workspace has sign-up's "Default service" and Checkout: forms name Checkout unless told otherwise.
const form = (over: Record<string, unknown> = {}) => ({
  name: `alerts ${randomUUID().slice(0, 8)}`,
  notificationTypes: ['EMAIL'],
  service_id: serviceId,
  ...over,
});
/** A form for a workspace's only service (sign-up's): the spec's form, without service_id. */
const specForm = (over: Record<string, unknown> = {}) => form({ service_id: undefined, ...over });
/** A verified phone number of a member (the CLI's contact add: the operator vouches for it). */
async function memberPhone(email: string, organizationId = ws.organizationId): Promise<string> {
  const number = `+1415555${String(Math.floor(Math.random() * 10000)).padStart(4, '0')}`;
  await addContactMethod(fx.stack.orm, { email, type: 'sms', address: number, organizationId });
  return number;
}
async function newWebhook(over: Record<string, unknown> = {}, session: DashboardSession = admin()) {
  const res = await api('POST', '/webhooks', { session, body: form(over) });
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
  return res.body.data;
}

describe('GET /api/webhooks', () => {
  it('when any member lists, then the body is exactly {success, webhooks, total} with the spec’s fields of every webhook', async () => {
    const hook = await newWebhook({ name: 'Prod DB alerts', notificationTypes: ['EMAIL', 'SMS'] });
    const plain = (await api('POST', '/sources', { session: admin(), body: { name: 'plain source', service_id: serviceId } })).body.data;
    for (const role of ALL_ROLES) {
      const res = await api('GET', '/webhooks', { session: ws.as[role] });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['success', 'total', 'webhooks']);
      expect(res.body.success).toBe(true);
      expect(res.body.total).toBe(res.body.webhooks.length);
      expect(res.body.webhooks.map((w: { id: string }) => w.id)).not.toContain(plain.id);
      const listed = res.body.webhooks.find((w: { id: string }) => w.id === hook.id);
      expect(listed.id).toBe(hook.id);
      expect(listed.name).toBe('Prod DB alerts');
      expect(listed.alias).toBe('prod-db-alerts');
      expect(listed.status).toBe('ACTIVE');
      expect(listed.webhook_url).toBe(hook.webhook_url);
      expect(listed.webhook_url.startsWith(`${fx.stack.urls.ingest}/`)).toBe(true);
      expect(listed.routing_key).toMatch(/^[0-9a-f]{32}$/);
      expect(listed.routing_key).toBe(hook.routing_key);
      expect(listed.notification_types).toEqual(['EMAIL', 'SMS']);
      expect(listed.statistics).toEqual({ total_calls: 0, successful_calls: 0, failed_calls: 0 });
      expect(JSON.stringify(res.body)).not.toContain(hook.signing_secret);
    }
  });

  it('when webhooks were made on the API-key surface, then the dashboard lists the same webhooks as /v1/webhooks', async () => {
    const key = await apiKeyFor(fx.stack.orm, ws.organizationId, { email: ws.as.ACCOUNT_ADMIN.email });
    const v1 = await request('POST', `${fx.stack.urls.apiKey}/v1/webhooks`, {
      token: key.key,
      body: { name: 'from v1', channels: ['sms'], service_id: serviceId },
    });
    expect(v1.status).toBe(201);
    const apiKey = await request('GET', `${fx.stack.urls.apiKey}/v1/webhooks?limit=100`, { token: key.key });
    const dashboard = await api('GET', '/webhooks', { session: ws.as.MEMBER });
    expect(dashboard.body.webhooks.map((w: { id: string }) => w.id)).toEqual(apiKey.body.data.map((w: { id: string }) => w.id));
    expect(dashboard.body.webhooks.find((w: { id: string }) => w.id === v1.body.data.id)).toMatchObject({ name: 'from v1', notification_types: ['SMS'] });
  });

  it('when its ingestion URL is called, then statistics count the calls', async () => {
    const hook = await newWebhook();
    expect((await request('POST', hook.webhook_url, { body: { title: 'disk full' } })).status).toBe(202);
    expect((await request('POST', hook.webhook_url, { body: { nothing: 'useful' } })).status).toBe(400);
    // Calls are counted in memory and written once a second.
    const stats = await waitFor(
      async () => {
        const listed = (await api('GET', '/webhooks', { session: admin() })).body.webhooks.find((w: { id: string }) => w.id === hook.id).statistics;
        return listed.total_calls === 2 && listed;
      },
      15_000,
      'the calls to be counted',
    );
    expect(stats).toEqual({ total_calls: 2, successful_calls: 1, failed_calls: 1 });
  });

  it('when limit and offset are given, then that page comes and total still counts them all; a bad one is 400 naming it', async () => {
    const all = (await api('GET', '/webhooks', { session: admin() })).body;
    const page = await api('GET', '/webhooks?limit=1&offset=1', { session: admin() });
    expect(page.body).toEqual({ success: true, webhooks: [all.webhooks[1]], total: all.total });
    for (const [query, field] of [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['offset=-1', 'offset'],
      ['page=2', 'page'],
    ] as const) {
      const res = await api('GET', `/webhooks?${query}`, { session: admin() });
      expectDashboardError(res, 400, 'invalid_request', new RegExp(field));
    }
  });
});

describe('POST /api/webhooks with the dashboard form', () => {
  it('when sent with targets, then 201 with the record, its ingestion URL, the signing secret once and the targets; reads show the targets, never the secret', async () => {
    await addContactMethod(fx.stack.orm, { email: ws.as.MEMBER.email, type: 'sms', address: '+14155550100', organizationId: ws.organizationId });
    const res = await api('POST', '/webhooks', {
      session: admin(),
      body: {
        name: 'Payments',
        description: 'card processor',
        notificationTypes: ['SMS', 'EMAIL', 'CALL', 'PUSH_NOTIF'],
        service_id: serviceId,
        // The member's verified phone as typed, the Team Manager's account email in capitals, two member ids.
        targetChannels: {
          sms: '+1 (415) 555-0100',
          email: ws.as.TEAM_MANAGER.email.toUpperCase(),
          call: ws.as.MEMBER.userId,
          push_notif: ws.as.TEAM_MANAGER.userId,
        },
      },
    });
    expect(res.status).toBe(201);
    const hook = res.body.data;
    expect(hook).toMatchObject({
      name: 'Payments',
      description: 'card processor',
      status: 'ACTIVE',
      service_id: serviceId,
      channels: ['sms', 'email', 'voice', 'push'],
      notification_types: ['SMS', 'EMAIL', 'CALL', 'PUSH_NOTIF'],
      target_channels: { sms: '+14155550100', email: ws.as.TEAM_MANAGER.email, call: ws.as.MEMBER.userId, push_notif: ws.as.TEAM_MANAGER.userId },
      signed: true,
      signing_secret: expect.stringMatching(/^whsec_/),
    });
    expect((await request('POST', hook.webhook_url, { body: { title: 'works' } })).status).toBe(202);
    const read = await api('GET', `/webhooks/${hook.id}`, { session: ws.as.MEMBER });
    expect(read.body).toMatchObject({ success: true, data: { id: hook.id, target_channels: hook.target_channels } });
    expect(JSON.stringify(read.body)).not.toContain(hook.signing_secret);
    const row = await db()('alert_sources').where({ id: hook.id }).first();
    expect(row.target_channels).toEqual({
      sms: { address: '+14155550100' },
      email: { address: ws.as.TEAM_MANAGER.email },
      voice: { user_id: ws.as.MEMBER.userId },
      push: { user_id: ws.as.TEAM_MANAGER.userId },
    });
  });

  it('when the workspace has several services, then service_id is required and routes the webhook', async () => {
    const other = (await api('POST', '/services', { session: admin(), body: { name: 'Search', team_id: ws.team.id } })).body.data;
    try {
      const missing = await api('POST', '/webhooks', { session: admin(), body: specForm() });
      expectDashboardError(missing, 400, 'invalid_request', /service_id is required: this workspace has 3 services/);
      expect((await newWebhook({ service_id: other.id })).service_id).toBe(other.id);
    } finally {
      await db()('alert_sources').where({ service_id: other.id }).delete();
      await api('DELETE', `/services/${other.id}`, { session: admin() });
    }
  });

  const stranger = randomUUID();
  it.each([
    ['no name', { name: undefined }, /^name: /],
    ['a name under 3 characters', { name: 'ab' }, /^name: must be at least 3 characters/],
    ['a name over 255 characters', { name: 'n'.repeat(256) }, /^name: must be at most 255 characters/],
    ['a name that is not a string', { name: 42 }, /^name: /],
    ['a description over 2000 characters', { description: 'd'.repeat(2001) }, /^description: must be at most 2000 characters/],
    ['no notificationTypes', { notificationTypes: undefined }, /^notificationTypes: /],
    ['empty notificationTypes', { notificationTypes: [] }, /^notificationTypes: must name at least one/],
    ['an unknown notification type', { notificationTypes: ['PAGER'] }, /^notificationTypes\.0: must be one of EMAIL, SMS, PUSH_NOTIF, CALL/],
    ['lowercase notification types', { notificationTypes: ['sms'] }, /^notificationTypes\.0: /],
    ['a target that is not a phone number', { notificationTypes: ['SMS'], targetChannels: { sms: '555-CALL-ME' } }, /^targetChannels\.sms: .*E\.164/],
    ['a target that is not an email address', { targetChannels: { email: 'not-an-address' } }, /^targetChannels\.email: .*email address/],
    [
      'a target for a channel it does not page',
      { notificationTypes: ['EMAIL'], targetChannels: { sms: '+14155550100' } },
      /^targetChannels\.sms: not one of this webhook's notificationTypes/,
    ],
    ['a target for an unknown channel', { targetChannels: { fax: '+14155550100' } }, /^targetChannels\.fax: unknown channel/],
    [
      'a push target that is an address',
      { notificationTypes: ['PUSH_NOTIF'], targetChannels: { push_notif: 'device-token' } },
      /^targetChannels\.push_notif: must be the user id of a member/,
    ],
    ['a target who is not a member', { targetChannels: { email: stranger } }, /^targetChannels\.email: not a member of this workspace/],
    [
      'an email address no member has',
      { targetChannels: { email: 'stranger@example.test' } },
      /^targetChannels\.email: not an address of a member of this workspace/,
    ],
    [
      'a phone number no member has',
      { notificationTypes: ['SMS', 'CALL'], targetChannels: { call: '+19005550100' } },
      /^targetChannels\.call: not an address of a member of this workspace/,
    ],
    ['an empty target', { targetChannels: { email: '' } }, /^targetChannels\.email: must not be empty/],
    ['a target over 320 characters', { targetChannels: { email: `${'a'.repeat(320)}@x.io` } }, /^targetChannels\.email: must be at most 320/],
    ['targets that are not an object', { targetChannels: ['+14155550100'] }, /^targetChannels: /],
    ['a service_id that is not a UUID', { service_id: 'checkout' }, /^service_id: must be a UUID/],
    ['an unknown field', { channels: ['sms'] }, /"channels"/],
  ])('when the form has %s, then 400 naming the field and nothing is written', async (_what, over, message) => {
    const before = await liveCount();
    const res = await api('POST', '/webhooks', { session: admin(), body: form(over) });
    expectDashboardError(res, 400, 'invalid_request', message);
    expect(await liveCount()).toBe(before);
  });

  it('when a target is a member of another workspace, then 400 naming the field', async () => {
    const other = await catalogWorkspace(fx.stack);
    const res = await api('POST', '/webhooks', { session: admin(), body: form({ targetChannels: { email: other.owner.userId } }) });
    expectDashboardError(res, 400, 'invalid_request', /^targetChannels\.email: not a member of this workspace/);
  });

  it('when a target is a member’s phone number they have not verified yet, then 400 naming the field: only a proved number is theirs', async () => {
    const number = `+1415556${String(Math.floor(Math.random() * 10000)).padStart(4, '0')}`;
    expect((await api('POST', '/contact-methods', { session: ws.as.MEMBER, body: { type: 'sms', address: number } })).status).toBe(201);
    const before = await liveCount();
    const res = await api('POST', '/webhooks', { session: admin(), body: form({ notificationTypes: ['SMS'], targetChannels: { sms: number } }) });
    expectDashboardError(res, 400, 'invalid_request', /^targetChannels\.sms: not an address of a member of this workspace/);
    expect(JSON.stringify(res.body)).not.toContain(number);
    expect(await liveCount()).toBe(before);
  });

  it('when a FREE workspace has 3 sources, then a 4th webhook is 403 plan_limit_reached and nothing is stored', async () => {
    const free = await catalogWorkspace(fx.stack, { plan: 'FREE' });
    for (let i = 0; i < 3; i++) expect((await api('POST', '/webhooks', { session: free.owner, body: specForm() })).status).toBe(201);
    expectDashboardError(await api('POST', '/webhooks', { session: free.owner, body: specForm() }), 403, 'plan_limit_reached');
    expect(await liveCount(free.organizationId)).toBe(3);
  });
});

describe('who may create, delete and test a webhook', () => {
  it.each(ROLE_TABLE)(
    'when a %s creates a webhook on the team’s service, then allowed = %s (else 403 forbidden and nothing is stored)',
    async (role, allowed) => {
      const before = await liveCount();
      const res = await api('POST', '/webhooks', { session: ws.as[role], body: form() });
      if (allowed) expect(res.status).toBe(201);
      else expectDashboardError(res, 403, 'forbidden');
      expect(await liveCount()).toBe(before + (allowed ? 1 : 0));
    },
  );

  it.each(ROLE_TABLE)('when a %s deletes the team’s webhook, then allowed = %s (else 403 and its URL still works)', async (role, allowed) => {
    const hook = await newWebhook();
    const res = await api('DELETE', `/webhooks/${hook.id}`, { session: ws.as[role] });
    if (allowed) expect(res.body).toMatchObject({ success: true, data: { id: hook.id, deleted: true } });
    else expectDashboardError(res, 403, 'forbidden');
    expect((await request('POST', hook.webhook_url, { body: { title: 'still there?' } })).status).toBe(allowed ? 404 : 202);
  });

  it.each(ROLE_TABLE)('when a %s tests the team’s webhook, then allowed = %s (else 403 and nothing is sent)', async (role, allowed) => {
    // A target only this case uses: another email address of the Member.
    const address = `test-${role.toLowerCase()}-${randomUUID().slice(0, 8)}@example.test`;
    await addContactMethod(fx.stack.orm, { email: ws.as.MEMBER.email, type: 'email', address, organizationId: ws.organizationId });
    const hook = await newWebhook({ targetChannels: { email: address } });
    const res = await api('POST', `/webhooks/${hook.id}/test`, { session: ws.as[role] });
    if (allowed) expect(res.body.data.sends).toMatchObject([{ status: 'sent' }]);
    else expectDashboardError(res, 403, 'forbidden');
    expect(await inbox(address)).toHaveLength(allowed ? 1 : 0);
  });

  it('when a webhook is of another workspace or unknown, then every route answers 404', async () => {
    const other = await catalogWorkspace(fx.stack);
    const theirs = (await api('POST', '/webhooks', { session: other.owner, body: specForm() })).body.data;
    for (const id of [theirs.id, randomUUID()]) {
      expectDashboardError(await api('GET', `/webhooks/${id}`, { session: admin() }), 404, 'not_found');
      expectDashboardError(await api('DELETE', `/webhooks/${id}`, { session: admin() }), 404, 'not_found');
      expectDashboardError(await api('POST', `/webhooks/${id}/test`, { session: admin() }), 404, 'not_found');
    }
    expectDashboardError(await api('GET', '/webhooks/not-a-uuid', { session: admin() }), 400, 'invalid_request', /^id: must be a UUID/);
    expect((await request('POST', theirs.webhook_url, { body: { title: 'still theirs' } })).status).toBe(202);
  });
});

describe('DELETE /api/webhooks/:id', () => {
  it('when a webhook is deleted, then its row, URLs and statistics are gone, and its incident stays readable by the customer API', async () => {
    const hook = await newWebhook({ notificationTypes: ['EMAIL', 'SMS'] });
    const fired = await request('POST', hook.webhook_url, { body: { title: 'before the delete', dedup_key: 'k1' } });
    expect(fired.status).toBe(202);
    const res = await api('DELETE', `/webhooks/${hook.id}`, { session: admin() });
    expect(res.body).toMatchObject({ success: true, data: { id: hook.id, deleted: true } });

    expect(await db()('alert_sources').where({ id: hook.id }).first()).toBeUndefined();
    expect(await db()('idempotency_records').where({ source_id: hook.id }).first()).toBeUndefined();
    expect((await request('POST', hook.webhook_url, { body: { title: 'after the delete' } })).status).toBe(404);
    expect((await request('POST', hook.receiver_url, { body: { title: 'after the delete' } })).status).toBe(404);
    expectDashboardError(await api('GET', `/webhooks/${hook.id}`, { session: admin() }), 404, 'not_found');
    expect((await api('GET', '/webhooks', { session: admin() })).body.webhooks.map((w: { id: string }) => w.id)).not.toContain(hook.id);
    expectDashboardError(await api('DELETE', `/webhooks/${hook.id}`, { session: admin() }), 404, 'not_found');

    const token = await tokenFor(fx.stack.orm, ws.organizationId, ws.owner.email, 'READ_ONLY');
    const incident = await request('GET', `${fx.stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents/${fired.body.incident_id}`, { token });
    expect(incident.status).toBe(200);
    expect(incident.body.data).toMatchObject({ id: fired.body.incident_id, title: 'before the delete' });
  });
});

describe('POST /api/webhooks/:id/test (dev inbox: no provider configured)', () => {
  it('when a webhook has targets, then each channel’s test goes to its target; a member target is reached on their own contact', async () => {
    const number = await memberPhone(ws.as.MEMBER.email);
    await addContactMethod(fx.stack.orm, {
      email: ws.as.MEMBER.email,
      type: 'push_android',
      address: `android-${randomUUID()}`,
      organizationId: ws.organizationId,
    });
    const device = (await db()('contact_methods').where({ user_id: ws.as.MEMBER.userId, type: 'push_android' }).first()).address;
    const hook = await newWebhook({
      name: 'Targeted',
      notificationTypes: ['SMS', 'EMAIL', 'PUSH_NOTIF'],
      targetChannels: { sms: number, push_notif: ws.as.MEMBER.userId },
    });

    const res = await api('POST', `/webhooks/${hook.id}/test`, { session: ws.as.TEAM_MANAGER });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ webhook_id: hook.id, plan: 'BUSINESS', email_only: false });
    const sms = (await inbox(number))[0];
    const push = (await inbox(device))[0];
    const email = (await inbox(ws.as.TEAM_MANAGER.email)).at(-1);
    expect(res.body.data.sends).toEqual([
      { notification_type: 'SMS', channel: 'sms', to: number, recipient: 'address', status: 'sent', provider: 'dev_inbox', provider_message_id: sms.id },
      {
        notification_type: 'EMAIL',
        channel: 'email',
        to: ws.as.TEAM_MANAGER.email,
        recipient: 'caller',
        status: 'sent',
        provider: 'dev_inbox',
        provider_message_id: email.id,
      },
      {
        notification_type: 'PUSH_NOTIF',
        channel: 'push_android',
        to: device,
        recipient: 'member',
        status: 'sent',
        provider: 'dev_inbox',
        provider_message_id: push.id,
      },
    ]);
    expect(sms).toMatchObject({ channel: 'sms', body: expect.stringContaining('Test notification from webhook “Targeted”') });
    expect(email.subject).toContain('Test notification');
  });

  it('when the member a target address belonged to has left the workspace, then that send fails and nothing goes to the address', async () => {
    const leaving = await memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'MEMBER');
    const hook = await newWebhook({ notificationTypes: ['EMAIL'], targetChannels: { email: leaving.email } });
    expect((await api('DELETE', `/members/${leaving.userId}`, { session: ws.owner })).status).toBe(200);
    const res = await api('POST', `/webhooks/${hook.id}/test`, { session: admin() });
    expect(res.body.data.sends).toEqual([
      {
        notification_type: 'EMAIL',
        channel: 'email',
        to: null,
        recipient: 'address',
        status: 'failed',
        provider: null,
        error: 'the target address no longer belongs to a member of this workspace: nothing was sent to it',
      },
    ]);
    expect(await inbox(leaving.email)).toHaveLength(0);
  });

  it('when the caller has no contact for a channel and there is no target, then that send fails saying why and the others still go', async () => {
    const hook = await newWebhook({ notificationTypes: ['CALL', 'EMAIL'] });
    const before = await inboxCount();
    const res = await api('POST', `/webhooks/${hook.id}/test`, { session: ws.as.BILLING_OWNER });
    expect(res.body.data.sends).toEqual([
      {
        notification_type: 'CALL',
        channel: 'voice',
        to: null,
        recipient: 'caller',
        status: 'failed',
        provider: null,
        error: 'you have no verified Voice call contact method',
      },
      expect.objectContaining({ notification_type: 'EMAIL', to: ws.as.BILLING_OWNER.email, status: 'sent' }),
    ]);
    expect(res.body.message).toMatch(/^1 of 2 test notification/);
    expect(await inboxCount()).toBe(before + 1);
  });

  it('when a webhook is tested twice within a minute, then the second is 429 with Retry-After and nothing is sent', async () => {
    const hook = await newWebhook({ targetChannels: { email: ws.as.MEMBER.email } });
    const mailed = (await inbox(ws.as.MEMBER.email)).length;
    expect((await api('POST', `/webhooks/${hook.id}/test`, { session: admin() })).status).toBe(200);
    const before = await inboxCount();
    const again = await api('POST', `/webhooks/${hook.id}/test`, { session: admin() });
    expectDashboardError(again, 429, 'rate_limited', /too many test notifications/);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await inboxCount()).toBe(before);
    expect(await inbox(ws.as.MEMBER.email)).toHaveLength(mailed + 1);
  });

  it('when a workspace has sent 10 tests in the hour, then an 11th on another webhook is 429 and nothing is sent', async () => {
    const busy = await catalogWorkspace(fx.stack);
    const hooks = [];
    for (let i = 0; i < 11; i++) hooks.push((await api('POST', '/webhooks', { session: busy.owner, body: specForm() })).body.data);
    for (const hook of hooks.slice(0, 10)) expect((await api('POST', `/webhooks/${hook.id}/test`, { session: busy.owner })).status).toBe(200);
    const before = await inboxCount();
    const eleventh = await api('POST', `/webhooks/${hooks[10].id}/test`, { session: busy.owner });
    expectDashboardError(eleventh, 429, 'rate_limited');
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(await inboxCount()).toBe(before);
  });

  it('when a FREE workspace tests SMS and email, then both go by email and the answer says the plan sends by email only', async () => {
    const free = await catalogWorkspace(fx.stack, { plan: 'FREE' });
    const number = await memberPhone(free.owner.email, free.organizationId);
    const hook = (
      await api('POST', '/webhooks', { session: free.owner, body: specForm({ notificationTypes: ['SMS', 'EMAIL'], targetChannels: { sms: number } }) })
    ).body.data;
    const res = await api('POST', `/webhooks/${hook.id}/test`, { session: free.owner });
    expect(res.body.data).toMatchObject({ plan: 'FREE', email_only: true });
    expect(res.body.data.sends).toEqual([
      expect.objectContaining({
        notification_type: 'SMS',
        channel: 'email',
        to: free.owner.email,
        recipient: 'address',
        status: 'sent',
        fallback_reason: 'the FREE plan pages by email only; sent by email instead',
      }),
      expect.objectContaining({ notification_type: 'EMAIL', channel: 'email', to: free.owner.email, status: 'sent' }),
    ]);
    expect(res.body.message).toMatch(/FREE plan pages by email only/);
    expect(await inbox(number)).toHaveLength(0);
  });
});

describe('paging through a webhook’s targets', () => {
  const decisionOf = (incidentId: string) =>
    waitFor(() => db()('timeline_entries').where({ incident_id: incidentId, type: 'paging_decision' }).first(), 15_000, 'the paging decision');

  it('when a channel targets a member, then the incident pages that member on it instead of the owning team', async () => {
    const hook = await newWebhook({ name: 'Targets page', notificationTypes: ['EMAIL'], targetChannels: { email: ws.as.MEMBER.userId } });
    const fired = await request('POST', hook.webhook_url, { body: { title: 'member target', severity: 'critical' } });
    expect(fired.status).toBe(202);
    const decision = await decisionOf(fired.body.incident_id);
    expect(decision.data.paged).toEqual([expect.objectContaining({ user_id: ws.as.MEMBER.userId, pages: [{ channel: 'email', delay_seconds: 0 }] })]);
    expect(decision.data.targets).toEqual([expect.objectContaining({ type: 'user', id: ws.as.MEMBER.userId })]);
    expect(decision.message).toContain(ws.as.MEMBER.email);
  });

  it('when only some channels are targeted, then the team keeps the others, and an address target leaves its channel to the team', async () => {
    const sms = await addContactMethod(fx.stack.orm, {
      email: ws.as.TEAM_MANAGER.email,
      type: 'sms',
      address: '+14155550177',
      organizationId: ws.organizationId,
    });
    // The team is paged by its people's rules on the channels left to it: the Team Manager's SMS rule.
    await addNotificationRule(fx.stack.orm, { email: ws.as.TEAM_MANAGER.email, contactMethodId: sms.id, delaySeconds: 0 });
    // The SMS target is the Team Manager's own number, given as an address: the channel still pages the team.
    const hook = await newWebhook({
      name: 'Split targets',
      notificationTypes: ['SMS', 'EMAIL'],
      targetChannels: { email: ws.as.MEMBER.userId, sms: '+14155550177' },
    });
    const fired = await request('POST', hook.webhook_url, { body: { title: 'split targets', severity: 'critical' } });
    const decision = await decisionOf(fired.body.incident_id);
    const paged = Object.fromEntries(
      decision.data.paged.map((p: { user_id: string; pages: Array<{ channel: string }> }) => [p.user_id, p.pages.map((pg) => pg.channel)]),
    );
    expect(paged).toEqual({ [ws.as.TEAM_MANAGER.userId]: ['sms'], [ws.as.MEMBER.userId]: ['email'] });
  });
});

describe('GET /api/openapi.json', () => {
  it('when the document is read, then every webhook route is in it with its success schema, the list as its exact body', async () => {
    const doc = (await api('GET', '/openapi.json')).body;
    for (const [path, method, status] of [
      ['/api/webhooks', 'get', '200'],
      ['/api/webhooks', 'post', '201'],
      ['/api/webhooks/{id}', 'get', '200'],
      ['/api/webhooks/{id}', 'delete', '200'],
      ['/api/webhooks/{id}/test', 'post', '200'],
    ]) {
      expect(doc.paths[path]?.[method]?.responses?.[status]?.content?.['application/json']?.schema).toBeDefined();
    }
    expect(Object.keys(doc.paths['/api/webhooks'].get.responses['200'].content['application/json'].schema.properties).sort()).toEqual([
      'success',
      'total',
      'webhooks',
    ]);
    expect(doc.paths['/api/webhooks/{id}/test'].post.responses['429']).toBeDefined();
  });
});

describe('the audit log', () => {
  it('when a webhook is created, tested and deleted, then each is one entry and none holds a secret or its URL', async () => {
    const session = ws.as.TEAM_MANAGER;
    const hook = await newWebhook({ name: 'audited', targetChannels: { email: session.email } }, session);
    await api('POST', `/webhooks/${hook.id}/test`, { session });
    await api('DELETE', `/webhooks/${hook.id}`, { session });
    const entries = [];
    for (const action of ['webhook.create', 'webhook.test', 'webhook.delete']) {
      const mine = (await auditLog(fx.stack, ws.owner, action)).filter((e) => e.target.id === hook.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ actor: { label: session.email }, target: { type: 'webhook', id: hook.id } });
      entries.push(...mine);
    }
    expect(entries[0].details).toMatchObject({ name: 'audited', service_id: serviceId, notification_types: ['EMAIL'], targets: ['email'] });
    expect(entries[1].details).toMatchObject({ sends: [{ notification_type: 'EMAIL', channel: 'email', status: 'sent' }] });
    expect(entries[2].details).toMatchObject({ name: 'audited' });
    const text = JSON.stringify(entries);
    expect(text).not.toContain(hook.signing_secret);
    expect(text).not.toContain(hook.webhook_url.split('/').pop());
  });
});

describe('POST /api/webhooks/:id/test with Twilio and SendGrid configured', () => {
  const SID = 'AC' + 'd4'.repeat(16);
  let twilio: TwilioFake;
  let sendgrid: SendgridFake;
  let stack: TestStack;
  beforeAll(async () => {
    twilio = await startTwilioFake({ accountSid: SID, authToken: 'tw-token' });
    sendgrid = await startSendgridFake({ apiKey: 'SG.key' });
    stack = await startTestStack({
      worker: false,
      env: {
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: 'tw-token',
        TWILIO_FROM_NUMBER: '+15550001111',
        TWILIO_API_BASE_URL: twilio.url,
        SENDGRID_API_KEY: 'SG.key',
        SENDGRID_API_BASE_URL: sendgrid.url,
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await Promise.all([twilio?.close(), sendgrid?.close()]);
  });

  it('when a webhook with SMS, call, email and push targets is tested, then Twilio texts and calls, SendGrid emails, push (no provider) lands in the dev inbox', async () => {
    const seeded = await seedWorkspace(stack.orm, { plan: 'PRO' });
    const session = await memberSession(stack.urls.app, stack.orm, seeded.organizationId, 'ACCOUNT_ADMIN');
    await addContactMethod(stack.orm, { email: session.email, type: 'push_ios', address: 'ab'.repeat(32), organizationId: seeded.organizationId });
    // Targets reach members only: the numbers and the address are the admin's own, verified.
    for (const [type, address] of [
      ['sms', '+14155550123'],
      ['voice', '+14155550124'],
      ['email', 'wire@example.test'],
    ]) {
      await addContactMethod(stack.orm, { email: session.email, type, address, organizationId: seeded.organizationId });
    }
    const call = (method: string, path: string, body?: unknown) =>
      request(method, `${stack.urls.app}/api${path}`, { body, headers: { Cookie: `__Host-klaxon_session=${session.cookie}`, 'X-CSRF-Token': session.csrf } });
    const created = await call('POST', '/webhooks', {
      name: 'Wire test',
      notificationTypes: ['SMS', 'CALL', 'EMAIL', 'PUSH_NOTIF'],
      targetChannels: { sms: '+14155550123', call: '+14155550124', email: 'wire@example.test', push_notif: session.userId },
    });
    expect(created.status).toBe(201);

    const res = await call('POST', `/webhooks/${created.body.data.id}/test`);
    expect(res.status).toBe(200);
    const sms = twilio.messages().find((m) => m.params.To === '+14155550123')!;
    const voice = twilio.calls().find((c) => c.params.To === '+14155550124')!;
    const mail = sendgrid.emails().find((e) => e.body.personalizations[0].to[0].email === 'wire@example.test')!;
    const push = await knexOf(stack.orm)('dev_deliveries')
      .where({ to: 'ab'.repeat(32) })
      .first();
    expect(res.body.data.sends).toEqual([
      { notification_type: 'SMS', channel: 'sms', to: '+14155550123', recipient: 'address', status: 'sent', provider: 'twilio', provider_message_id: sms.sid },
      {
        notification_type: 'CALL',
        channel: 'voice',
        to: '+14155550124',
        recipient: 'address',
        status: 'sent',
        provider: 'twilio',
        provider_message_id: voice.sid,
      },
      {
        notification_type: 'EMAIL',
        channel: 'email',
        to: 'wire@example.test',
        recipient: 'address',
        status: 'sent',
        provider: 'sendgrid',
        provider_message_id: mail.messageId,
      },
      {
        notification_type: 'PUSH_NOTIF',
        channel: 'push_ios',
        to: 'ab'.repeat(32),
        recipient: 'member',
        status: 'sent',
        provider: 'dev_inbox',
        provider_message_id: push.id,
      },
    ]);
    expect(sms.params).toMatchObject({ From: '+15550001111', Body: expect.stringContaining('Test notification from webhook “Wire test”') });
    expect(voice.params.Twiml).toContain('This is a test');
    expect(mail.body.subject).toContain('Test notification');
    expect(res.body.message).toBe('4 of 4 test notification(s) sent');
  });

  it('when Twilio refuses the number, then that send is failed with the provider’s reason and the rest are sent', async () => {
    const seeded = await seedWorkspace(stack.orm, { plan: 'PRO' });
    const session = await memberSession(stack.urls.app, stack.orm, seeded.organizationId, 'ACCOUNT_ADMIN');
    twilio.failTo('+14155550125', { code: 21211 });
    await addContactMethod(stack.orm, { email: session.email, type: 'sms', address: '+14155550125', organizationId: seeded.organizationId });
    const call = (method: string, path: string, body?: unknown) =>
      request(method, `${stack.urls.app}/api${path}`, { body, headers: { Cookie: `__Host-klaxon_session=${session.cookie}`, 'X-CSRF-Token': session.csrf } });
    const created = await call('POST', '/webhooks', { name: 'Bad number', notificationTypes: ['SMS', 'EMAIL'], targetChannels: { sms: '+14155550125' } });
    const res = await call('POST', `/webhooks/${created.body.data.id}/test`);
    expect(res.body.data.sends).toEqual([
      {
        notification_type: 'SMS',
        channel: 'sms',
        to: '+14155550125',
        recipient: 'address',
        status: 'failed',
        provider: 'twilio',
        error: expect.stringContaining('21211'),
      },
      expect.objectContaining({ notification_type: 'EMAIL', to: session.email, status: 'sent', provider: 'sendgrid' }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain('tw-token');
  });
});
