import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { addContactMethod } from '../../../src/services/paging/contacts';
import { setServiceChat } from '../../../src/services/chat/service-chat';
import { createSealer } from '../../../src/services/sealing/seal';
import { TEST_SEND_LIMITS } from '../../../src/services/throttles';
import { makeTestCert, type TestCert } from '../../../src/integrations/testing/tls-cert';
import { startTeamsWebhook, type TeamsWebhookFake } from '../../../src/integrations/microsoft-teams/testing/wire-fake';
import { startWebPushFake, type WebPushFake } from '../../../src/integrations/web-push/testing/wire-fake';
import { catalogWorkspaceWithService, type CatalogWorkspace } from '../../support/catalog';
import { dashboard, expectDashboardError, memberSession, type DashboardSession } from '../../support/dashboard';
import { startTestStack, TEST_SECRET, type TestStack } from '../../support/stack';

/*
 * Every test send shares one budget, counted in Postgres (docs/security.md, "Limits"): a push
 * test, a Teams test card and a one-off drill; 5 per member in 10 minutes, 30 per workspace an
 * hour. A webhook's test notification keeps its own limits (per webhook and workspace). What goes out is counted where it lands: the Teams and push
 * services' wire fakes, the dev inbox, the drills table.
 */
let cert: TestCert;
let push: WebPushFake;
let teams: TeamsWebhookFake;
let stack: TestStack;
let dataDir: string;

beforeAll(async () => {
  cert = makeTestCert();
  [push, teams] = await Promise.all([startWebPushFake({ cert }), startTeamsWebhook()]);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-test-sends-'));
  // Both fakes listen on 127.0.0.1; drills are written and queued (no worker needed to refuse one).
  stack = await startTestStack({ worker: false, env: { KLAXON_DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: 'true', WEB_PUSH_CA_FILE: cert.certFile } });
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([push?.close(), teams?.close()]);
  cert?.remove();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const { perUser, perWorkspace } = TEST_SEND_LIMITS;
const api = (method: string, p: string, session: DashboardSession, body?: unknown) => dashboard(stack.urls.app, method, p, { session, body });
const db = () => knexOf(stack.orm);

/** A BUSINESS workspace whose service posts to the Teams fake under a name of its own. */
async function workspace(): Promise<{ ws: CatalogWorkspace; serviceId: string; serviceName: string }> {
  const serviceName = `Checkout ${randomUUID().slice(0, 8)}`;
  const { ws, serviceId } = await catalogWorkspaceWithService(stack, serviceName);
  await setServiceChat(stack.orm, createSealer(TEST_SECRET), { organizationId: ws.organizationId, serviceId }, { teamsWebhookUrl: teams.url });
  return { ws, serviceId, serviceName };
}
type Workspace = Awaited<ReturnType<typeof workspace>>;

const admin = (w: Workspace) => memberSession(stack.urls.app, stack.orm, w.ws.organizationId, 'ACCOUNT_ADMIN');
const microsoftTeamsTest = (w: Workspace, session: DashboardSession) => api('POST', `/services/${w.serviceId}/chat/teams/test`, session);
const testCardsOf = (w: Workspace) => teams.posts.filter((p) => p.text.includes('Klaxon test message') && p.text.includes(`"${w.serviceName}"`)).length;

/** A browser push contact method of the member, on a fresh subscription of the push fake. */
async function pushContact(session: DashboardSession): Promise<{ id: string; pushes: () => number }> {
  const sub = push.subscribe();
  const added = await api('POST', '/contact-methods', session, { type: 'push_web', address: sub.toJSON(), label: 'Chrome' });
  expect(added.status).toBe(201);
  return { id: added.body.data.id, pushes: () => push.requests.filter((r) => r.subscriptionId === sub.id).length };
}

const drill = (session: DashboardSession & { userId: string }) =>
  api('POST', '/drills', session, { target: { type: 'user', id: session.userId }, channels: ['email'] });
const drillsBy = async (userId: string) => Number((await db()('drills').where({ created_by: userId }).count({ n: '*' }))[0].n);
const mailTo = async (to: string) => Number((await db()('dev_deliveries').where({ to }).count({ n: '*' }))[0].n);

function expectThrottled(res: { status: number; body: any; headers: Headers }, maxRetryAfter: number): void {
  expectDashboardError(res, 429, 'rate_limited', /too many test sends/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
}

describe('test sends share one throttle', () => {
  it(`when a member sends a ${perUser + 1}th Teams test card within 10 minutes, then it is 429 rate_limited with Retry-After and Teams received exactly ${perUser}`, async () => {
    const w = await workspace();
    const me = await admin(w);
    for (let i = 0; i < perUser; i++) expect((await microsoftTeamsTest(w, me)).status).toBe(200);
    expectThrottled(await microsoftTeamsTest(w, me), 600);
    expect(testCardsOf(w)).toBe(perUser);
    // The budget is the member's: another member of the workspace still sends.
    expect((await microsoftTeamsTest(w, await admin(w))).status).toBe(200);
    expect(testCardsOf(w)).toBe(perUser + 1);
  });

  it('when one member mixes a push test, Teams cards and a drill, then they share the budget: the next of any kind is 429 and sends nothing, while webhook tests keep their own limits', async () => {
    const w = await workspace();
    const me = await admin(w);
    const contact = await pushContact(me);
    const webhook = await api('POST', '/webhooks', me, { name: `alerts ${randomUUID().slice(0, 8)}`, notificationTypes: ['EMAIL'], service_id: w.serviceId });
    expect(webhook.status).toBe(201);

    expect((await api('POST', `/contact-methods/${contact.id}/test`, me)).body.data).toMatchObject({ delivered: true });
    expect((await microsoftTeamsTest(w, me)).status).toBe(200);
    expect((await drill(me)).status).toBe(201);
    expect((await microsoftTeamsTest(w, me)).status).toBe(200);
    expect((await microsoftTeamsTest(w, me)).status).toBe(200);
    const sent = { pushes: contact.pushes(), cards: testCardsOf(w), drills: await drillsBy(me.userId) };
    expect(sent).toEqual({ pushes: 1, cards: 3, drills: 1 });

    expectThrottled(await api('POST', `/contact-methods/${contact.id}/test`, me), 600);
    expectThrottled(await microsoftTeamsTest(w, me), 600);
    expectThrottled(await drill(me), 600);
    expect({ pushes: contact.pushes(), cards: testCardsOf(w), drills: await drillsBy(me.userId) }).toEqual(sent);
    // A webhook's test notification is limited per webhook and workspace (docs/api/webhooks.md), not by this budget.
    expect((await api('POST', `/webhooks/${webhook.body.data.id}/test`, me)).status).toBe(200);
    expect(await mailTo(me.email)).toBe(1);
  });

  it(`when a workspace has sent ${perWorkspace} test sends in the hour (members within their own budgets), then the next member's first is 429 and nothing goes out`, async () => {
    const w = await workspace();
    const senders = await Promise.all(Array.from({ length: perWorkspace / perUser }, () => admin(w)));
    for (const member of senders) for (let i = 0; i < perUser; i++) expect((await microsoftTeamsTest(w, member)).status).toBe(200);
    expect(testCardsOf(w)).toBe(perWorkspace);
    const late = await admin(w);
    const refused = await microsoftTeamsTest(w, late);
    expectThrottled(refused, 3600);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(600);
    expect(testCardsOf(w)).toBe(perWorkspace);
  });

  it('when a member at their last test send sends several at once, then exactly one more goes out: the count is taken atomically in Postgres', async () => {
    const w = await workspace();
    const me = await admin(w);
    for (let i = 0; i < perUser - 1; i++) expect((await microsoftTeamsTest(w, me)).status).toBe(200);
    const racing = await Promise.all(Array.from({ length: 4 }, () => microsoftTeamsTest(w, me)));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 429, 429, 429]);
    expect(testCardsOf(w)).toBe(perUser);
  });

  it('when a test send is refused for another reason (a drill of a target drilled a minute ago, a contact method that takes no test), then it spends no budget', async () => {
    const w = await workspace();
    const me = await admin(w);
    expect((await drill(me)).status).toBe(201);
    for (let i = 0; i < perUser; i++) expectDashboardError(await drill(me), 429, 'rate_limited', /drilled less than/);
    // A Slack DM takes no test send (GET /api/channels: testable false).
    const { email } = await knexOf(stack.orm)('users').select('email').where({ id: me.userId }).first();
    const slack = await addContactMethod(stack.orm, { email, type: 'slack', address: 'U0NOTEST01' });
    for (let i = 0; i < perUser; i++) expectDashboardError(await api('POST', `/contact-methods/${slack.id}/test`, me), 409, 'test_not_supported');
    for (let i = 0; i < perUser - 1; i++) expect((await microsoftTeamsTest(w, me)).status).toBe(200);
    expectThrottled(await microsoftTeamsTest(w, me), 600);
  });
});
