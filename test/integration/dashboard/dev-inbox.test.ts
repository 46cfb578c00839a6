import { devInboxShownOf } from '../../../src/stack/boot';
import { loadConfig } from '../../../src/config';
import { dashboard, newAccount } from '../../support/dashboard';
import { startTestStack, type TestStack } from '../../support/stack';

describe('the dev inbox in the browser (GET /api/dev/inbox)', () => {
  let shown: TestStack;
  let hidden: TestStack;
  beforeAll(async () => {
    shown = await startTestStack({ worker: false, devInbox: true });
    hidden = await startTestStack({ worker: false });
  });
  afterAll(async () => {
    await shown?.stop();
    await hidden?.stop();
  });

  it('when it is on (klaxon start, loopback), then a newcomer finds their verification email there without a session', async () => {
    const account = newAccount();
    expect((await dashboard(shown.urls.app, 'POST', '/auth/signup', { body: account })).status).toBe(201);
    const inbox = await dashboard(shown.urls.app, 'GET', '/dev/inbox?limit=10');
    expect(inbox.status).toBe(200);
    const mail = inbox.body.data.find((m: { to: string }) => m.to === account.email);
    expect(mail).toMatchObject({ channel: 'email', subject: expect.stringContaining('Verify') });
    expect(mail.body).toMatch(/\/verify\?token=/);
  });

  it('when it is off (klaxon api, or a public APP_URL), then the route does not exist: 404', async () => {
    const res = await dashboard(hidden.urls.app, 'GET', '/dev/inbox');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 'not_found' });
  });

  it('when deciding whether to show it, then only `start` on a loopback APP_URL does', () => {
    const at = (url: string) => loadConfig({ ...process.env, APP_URL: url });
    expect(devInboxShownOf(at('http://localhost:3000'), 'start')).toBe(true);
    expect(devInboxShownOf(at('http://127.0.0.1:3000'), 'start')).toBe(true);
    expect(devInboxShownOf(at('http://localhost:3000'), 'api')).toBe(false);
    expect(devInboxShownOf(at('https://klaxon.example.com'), 'start')).toBe(false);
  });
});
