import { createMonitor, createService, createTeam } from '../../../src/services/workspace';
import { dashboardFixture, workspaceWithRoles } from '../../support/dashboard';

const fx = dashboardFixture();

describe('monitors under /api (read-only until the HTTP checks land)', () => {
  it('when any member lists monitors, then they see their workspace’s and not another’s, and one by id; another workspace’s id is 404', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const other = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'web' });
    const service = await createService(fx.stack.orm, { organizationId: ws.organizationId, teamId: team.id, name: 'site' });
    const mine = await createMonitor(fx.stack.orm, { organizationId: ws.organizationId, serviceId: service.id, name: 'home page', type: 'http', target: 'https://example.test/', intervalSeconds: 60 });
    const otherTeam = await createTeam(fx.stack.orm, { organizationId: other.organizationId, name: 'web' });
    const otherService = await createService(fx.stack.orm, { organizationId: other.organizationId, teamId: otherTeam.id, name: 'site' });
    const theirs = await createMonitor(fx.stack.orm, { organizationId: other.organizationId, serviceId: otherService.id, name: 'theirs', type: 'http', target: 'https://other.test/', intervalSeconds: 60 });

    const list = await fx.api('GET', '/monitors', { session: ws.as.MEMBER });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ id: mine.id, name: 'home page', service_id: service.id, interval_seconds: 60 })]);
    expect((await fx.api('GET', `/monitors/${mine.id}`, { session: ws.as.MEMBER })).body.data.name).toBe('home page');
    const foreign = await fx.api('GET', `/monitors/${theirs.id}`, { session: ws.as.MEMBER });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ success: false, code: 'not_found' });
    expect((await fx.api('GET', '/monitors/not-a-uuid', { session: ws.as.MEMBER })).status).toBe(400);
  });
});
