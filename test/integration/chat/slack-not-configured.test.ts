import { catalogWorkspace } from '../../support/catalog';
import { dashboardFixture, expectDashboardError } from '../../support/dashboard';
import { getManual } from './chat-fixture';

// The default configuration: no SLACK_* variables.
const fx = dashboardFixture();
const { api } = fx;

describe('Slack not configured', () => {
  it('then the install is 409 slack_not_configured, the channels too, and /api/integrations says so; Teams works without it', async () => {
    const ws = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    const res = await api('GET', '/integrations/slack/install', { session: ws.as.ACCOUNT_ADMIN });
    expectDashboardError(res, 409, 'slack_not_configured', /SLACK_CLIENT_ID/);
    expectDashboardError(await api('GET', '/integrations/slack/channels', { session: ws.as.MEMBER }), 409, 'slack_not_configured');
    const list = await api('GET', '/integrations', { session: ws.as.MEMBER });
    expect(list.body.data.integrations[0]).toEqual({
      provider: 'slack',
      configured: false,
      connected: false,
      team_id: null,
      team_name: null,
      installed_at: null,
      installed_by: null,
    });
    const service = (await api('POST', '/services', { session: ws.as.ACCOUNT_ADMIN, body: { name: 'Web', team_id: ws.team.id } })).body.data.id;
    expectDashboardError(
      await api('PUT', `/services/${service}/chat`, { session: ws.as.ACCOUNT_ADMIN, body: { slack_channel_id: 'C0ALERTS01' } }),
      409,
      'slack_not_configured',
    );
    const teams = await api('PUT', `/services/${service}/chat`, {
      session: ws.as.ACCOUNT_ADMIN,
      body: { teams_webhook_url: 'https://example.webhook.office.com/x' },
    });
    expect(teams.status).toBe(200);
  });

  it('then a callback is sent back with reason=slack_not_configured', async () => {
    const res = await getManual(`${fx.stack.urls.app}/hooks/slack/oauth?code=x&state=y`);
    expect(res.status).toBe(302);
    expect(new URL(res.location!).search).toBe('?slack=error&reason=slack_not_configured');
  });

  it('then the manifest is still served, with this Klaxon’s URLs', async () => {
    const ws = await catalogWorkspace(fx.stack, { plan: 'FREE' });
    const res = await api('GET', '/integrations/slack/manifest', { session: ws.as.MEMBER });
    expect(res.status).toBe(200);
    expect(res.body.oauth_config.redirect_urls).toEqual([`${fx.stack.urls.app}/hooks/slack/oauth`]);
    expect(res.body.settings.interactivity.request_url).toBe(`${fx.stack.urls.app}/hooks/slack/interactions`);
  });

  it('then the routes are in /api/openapi.json: the install a 302, the disconnect a 204 with no body, the chat routes with their schemas', async () => {
    const doc = (await api('GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths['/api/integrations/slack/install'].get.responses)).toEqual(expect.arrayContaining(['302', '403', '409']));
    expect(doc.paths['/api/integrations/slack'].delete.responses['204']).toEqual({ description: expect.any(String) });
    expect(Object.keys(doc.paths['/api/integrations/slack/channels'].get.responses)).toEqual(expect.arrayContaining(['200', '409', '503']));
    expect(doc.paths['/api/integrations'].get.operationId).toBe('listIntegrations');
    expect(doc.paths['/api/integrations/slack/manifest'].get.operationId).toBe('getSlackManifest');
    expect(doc.paths['/api/services/{id}/chat'].put.requestBody.content['application/json'].schema.properties).toHaveProperty('teams_webhook_url');
    expect(doc.paths['/api/services/{id}/chat'].get.operationId).toBe('getServiceChat');
  });
});
