import { addUser } from '../../../src/services/workspace';
import { dashboard, dashboardFixture, sessionCookieFrom, signUpAndLogIn } from '../../support/dashboard';

const fx = dashboardFixture();

describe('a person in several workspaces', () => {
  it('when they list their workspaces and switch, then the new session is in the other workspace with that role, and the old cookie is 401', async () => {
    const first = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const second = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    await addUser(fx.stack.orm, {
      organizationId: second.organizationId,
      email: first.email,
      password: 'ignored-existing-user',
      role: 'MEMBER',
      verified: true,
    });

    const list = await fx.api('GET', '/auth/workspaces', { session: first });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({ id: first.organizationId, role: 'BILLING_OWNER', current: true, plan: 'FREE' }),
      expect.objectContaining({ id: second.organizationId, role: 'MEMBER', current: false }),
    ]);

    const switched = await fx.api('POST', '/auth/switch-workspace', { session: first, body: { organization_id: second.organizationId } });
    expect(switched.status).toBe(200);
    expect(switched.body.data).toMatchObject({ organization: { id: second.organizationId }, role: 'MEMBER', user: { email: first.email } });
    const cookie = sessionCookieFrom(switched)!;
    expect(cookie).not.toBe(first.cookie);
    expect(switched.body.data.csrf_token).not.toBe(first.csrf);

    const now = await dashboard(fx.stack.urls.app, 'GET', '/auth/session', { session: { cookie, csrf: switched.body.data.csrf_token } });
    expect(now.body.data).toMatchObject({ organization: { id: second.organizationId }, role: 'MEMBER' });
    expect((await fx.api('GET', '/auth/session', { session: first })).status).toBe(401);
  });

  it('when they ask to switch to a workspace they are not in, then it is 404 and their session is unchanged', async () => {
    const me = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const stranger = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const res = await fx.api('POST', '/auth/switch-workspace', { session: me, body: { organization_id: stranger.organizationId } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 'not_found' });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await fx.api('GET', '/auth/session', { session: me })).body.data.organization.id).toBe(me.organizationId);
    expect((await fx.api('POST', '/auth/switch-workspace', { session: me, body: { organization_id: 'nope' } })).body.error).toContain('organization_id');
  });
});
