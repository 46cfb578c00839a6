import { knexOf } from '../../../src/db/knex';
import { createSealer } from '../../../src/services/sealing/seal';
import { setPlan } from '../../../src/services/workspace';
import { auditLog, catalogWorkspace, type CatalogWorkspace } from '../../support/catalog';
import { dashboard, expectDashboardError } from '../../support/dashboard';
import { startTestStack, TEST_SECRET, type TestStack } from '../../support/stack';

let stack: TestStack;
let ws: CatalogWorkspace;
let service: string;
const db = () => knexOf(stack.orm);
const api = (method: string, path: string, o: Parameters<typeof dashboard>[3] = {}) => dashboard(stack.urls.app, method, path, o);

const TEAMS_URL = 'https://prod-01.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=s3cr3t-signature';

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  ws = await catalogWorkspace(stack, { plan: 'STARTER' });
  service = (await api('POST', '/services', { session: ws.as.ACCOUNT_ADMIN, body: { name: 'Payments API', team_id: ws.team.id } })).body.data.id;
});
afterAll(() => stack?.stop());

const admin = () => ws.as.ACCOUNT_ADMIN;
const put = (provider: string, body: unknown, session = admin(), id = service) => api('PUT', `/services/${id}/chat/${provider}`, { session, body });
const rows = (id = service) => db()('service_chat_destinations').where({ service_id: id }).orderBy('provider');

describe('PUT /api/services/{id}/chat/{provider}', () => {
  it('when an admin sets a Microsoft Teams URL, then it is stored sealed, answered masked, listed by GET, audited without the URL', async () => {
    const res = await put('microsoft-teams', { settings: { webhook_url: TEAMS_URL } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ provider: 'microsoft-teams', settings: { webhook_url: '…ture' } });
    const [row] = await rows();
    expect(row).toMatchObject({ provider: 'microsoft-teams', organization_id: ws.organizationId, settings: {} });
    expect(JSON.stringify(row)).not.toContain('s3cr3t');
    expect(createSealer(TEST_SECRET).open(row.secrets_sealed.webhook_url)).toBe(TEAMS_URL);
    const listed = (await api('GET', `/services/${service}/chat`, { session: ws.as.MEMBER })).body.data;
    expect(listed.destinations).toEqual([{ provider: 'microsoft-teams', settings: { webhook_url: '…ture' } }]);
    // The route of before reads the same store.
    expect((await api('GET', `/services/${service}/chat`, { session: admin() })).body.data.teams_webhook_url).toBe(TEAMS_URL);
    const [entry] = await auditLog(stack, admin(), 'service.chat_update');
    expect(entry).toMatchObject({ target: { type: 'service', id: service }, details: { provider: 'microsoft-teams', set: true } });
    expect(JSON.stringify(entry)).not.toContain('s3cr3t');
  });

  it.each([
    ['missing', {}],
    ['not a string', { webhook_url: 42 }],
    ['empty', { webhook_url: '' }],
    ['a private address (the SSRF guard)', { webhook_url: 'https://10.0.0.5/hook' }],
    ['the cloud metadata address', { webhook_url: 'https://169.254.169.254/latest/meta-data' }],
    ['plain http', { webhook_url: 'http://example.webhook.office.com/hook' }],
    ['not a URL', { webhook_url: 'teams please' }],
    ['over 2048 characters', { webhook_url: `https://example.webhook.office.com/${'a'.repeat(2048)}` }],
  ])('when webhook_url is %s, then 400 naming settings.webhook_url and nothing changes', async (_why, settings) => {
    await put('microsoft-teams', { settings: { webhook_url: TEAMS_URL } });
    const before = await rows();
    expectDashboardError(await put('microsoft-teams', { settings }), 400, 'invalid_request', /settings\.webhook_url/);
    expect(await rows()).toEqual(before);
  });

  it('when an unknown setting or body field is sent, then 400 and nothing changes', async () => {
    const before = await rows();
    expectDashboardError(await put('microsoft-teams', { settings: { webhook_url: TEAMS_URL, channel: 'x' } }), 400, 'invalid_request', /^settings/);
    expectDashboardError(await put('microsoft-teams', { settings: { webhook_url: TEAMS_URL }, extra: 1 }), 400, 'invalid_request');
    expect(await rows()).toEqual(before);
  });

  it('when the provider is not one the registry declares, then 404 and nothing is stored', async () => {
    const before = await rows();
    expectDashboardError(await put('carrier-pigeon', { settings: { webhook_url: TEAMS_URL } }), 404, 'not_found');
    expect((await api('DELETE', `/services/${service}/chat/carrier-pigeon`, { session: admin() })).status).toBe(404);
    expect(await rows()).toEqual(before);
  });

  it('when a member without services.manage sets one, then 403 and nothing changes', async () => {
    const before = await rows();
    expectDashboardError(await put('microsoft-teams', { settings: { webhook_url: TEAMS_URL } }, ws.as.MEMBER), 403, 'forbidden');
    expectDashboardError(await put('microsoft-teams', { settings: { webhook_url: TEAMS_URL } }, ws.as.OTHER_TEAM_MANAGER), 403, 'forbidden');
    expect(await rows()).toEqual(before);
  });

  it('when the workspace is on FREE, then setting is 403 plan_limit_reached; removing is allowed', async () => {
    const c = await catalogWorkspace(stack, { plan: 'STARTER' });
    const s = (await api('POST', '/services', { session: c.as.ACCOUNT_ADMIN, body: { name: 'Web', team_id: c.team.id } })).body.data.id;
    expect((await put('microsoft-teams', { settings: { webhook_url: TEAMS_URL } }, c.as.ACCOUNT_ADMIN, s)).status).toBe(200);
    await setPlan(stack.orm, c.organizationId, 'FREE');
    const before = await rows(s);
    expectDashboardError(await put('microsoft-teams', { settings: { webhook_url: TEAMS_URL } }, c.as.ACCOUNT_ADMIN, s), 403, 'plan_limit_reached');
    expect(await rows(s)).toEqual(before);
    expect((await api('DELETE', `/services/${s}/chat/microsoft-teams`, { session: c.as.ACCOUNT_ADMIN })).status).toBe(204);
    expect(await rows(s)).toEqual([]);
  });
});

describe('DELETE /api/services/{id}/chat/{provider}', () => {
  it('when an admin removes a destination, then 204 and it is gone; again: 204', async () => {
    await put('microsoft-teams', { settings: { webhook_url: TEAMS_URL } });
    expect((await api('DELETE', `/services/${service}/chat/microsoft-teams`, { session: admin() })).status).toBe(204);
    expect(await rows()).toEqual([]);
    expect((await api('GET', `/services/${service}/chat`, { session: admin() })).body.data).toMatchObject({ destinations: [], teams_webhook_url: null });
    expect((await api('DELETE', `/services/${service}/chat/microsoft-teams`, { session: admin() })).status).toBe(204);
  });

  it('when the service is deleted, then its destinations go with it', async () => {
    const s = (await api('POST', '/services', { session: admin(), body: { name: 'Doomed', team_id: ws.team.id } })).body.data.id;
    await put('microsoft-teams', { settings: { webhook_url: TEAMS_URL } }, admin(), s);
    expect(await rows(s)).toHaveLength(1);
    expect((await api('DELETE', `/services/${s}`, { session: admin() })).status).toBeLessThan(300);
    expect(await rows(s)).toEqual([]);
  });
});

describe('GET /api/integrations', () => {
  it('lists the registry’s chat providers after Slack, keyed microsoft-teams, with how many services post to each', async () => {
    await put('microsoft-teams', { settings: { webhook_url: TEAMS_URL } });
    const list = (await api('GET', '/integrations', { session: ws.as.MEMBER })).body.data.integrations;
    expect(list[0].provider).toBe('slack');
    expect(list.find((i: { provider: string }) => i.provider === 'microsoft-teams')).toMatchObject({
      provider: 'microsoft-teams',
      label: 'Microsoft Teams',
      configured: true,
      connected: true,
      services_with_webhook: 1,
    });
    expect(list.some((i: { provider: string }) => i.provider === 'teams')).toBe(false);
  });
});
