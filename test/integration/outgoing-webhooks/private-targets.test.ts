import { catalogWorkspace, countIn, type CatalogWorkspace } from '../../support/catalog';
import { dashboard, expectDashboardError } from '../../support/dashboard';
import { startTestStack, type TestStack } from '../../support/stack';

// ALLOW_PRIVATE_TARGETS=true: private addresses and plain http allowed; cloud metadata never.
let stack: TestStack;
let ws: CatalogWorkspace;
beforeAll(async () => {
  stack = await startTestStack({ env: { ALLOW_PRIVATE_TARGETS: 'true' } });
  ws = await catalogWorkspace(stack);
});
afterAll(() => stack?.stop());

const post = (url: string) => dashboard(stack.urls.app, 'POST', '/outgoing-webhooks', { session: ws.as.ACCOUNT_ADMIN, body: { url } });

describe('with ALLOW_PRIVATE_TARGETS', () => {
  it('when the URL is a private address or plain http, then it is accepted', async () => {
    expect((await post('http://10.0.0.7:8080/hook')).status).toBe(201);
    expect((await post('https://127.0.0.1/hook')).status).toBe(201);
    expect((await post('http://localhost:9000/hook')).status).toBe(201);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'http://100.100.100.200/latest/meta-data/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://2852039166/',
    'http://[::ffff:169.254.169.254]/',
  ])('when the URL is the cloud metadata endpoint %s, then 400 naming url and nothing is stored', async (url) => {
    const before = await countIn(stack, 'outgoing_webhooks', ws.organizationId);
    expectDashboardError(await post(url), 400, 'invalid_request', /^url: targets a cloud metadata address/);
    expect(await countIn(stack, 'outgoing_webhooks', ws.organizationId)).toBe(before);
  });

  it('when a monitor names the metadata endpoint, then it is refused too (the one shared guard)', async () => {
    const service = (await dashboard(stack.urls.app, 'POST', '/services', { session: ws.as.ACCOUNT_ADMIN, body: { name: 'Site', team_id: ws.team.id } })).body
      .data.id;
    const res = await dashboard(stack.urls.app, 'POST', '/monitors', {
      session: ws.as.ACCOUNT_ADMIN,
      body: { service_id: service, name: 'meta', url: 'http://169.254.169.254/', interval_seconds: 60, timeout_seconds: 10 },
    });
    expectDashboardError(res, 400, 'invalid_request', /^url: targets a cloud metadata address/);
  });
});
