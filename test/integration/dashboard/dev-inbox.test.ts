import { devInboxShownOf, hostOf } from '../../../src/stack/boot';
import { nonLoopbackAddress } from '../../support/network';
import { sendRaw } from '../../support/raw-http';
import { loadConfig } from '../../../src/config';
import { dashboard, newAccount } from '../../support/dashboard';
import { startTestStack, type TestStack } from '../../support/stack';

describe('the dev inbox in the browser (GET /api/dev/inbox)', () => {
  let shown: TestStack;
  let hidden: TestStack;
  beforeAll(async () => {
    // On every interface, so a test can also come from this machine's LAN address.
    shown = await startTestStack({ worker: false, devInbox: true, host: '0.0.0.0' });
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

  it('when a peer on the network (not loopback) asks, even with the right Host, then the route does not exist: 404 and no link is shown', async () => {
    const account = newAccount();
    expect((await dashboard(shown.urls.app, 'POST', '/auth/password-reset', { body: { email: newAccount().email } })).status).toBe(202);
    expect((await dashboard(shown.urls.app, 'POST', '/auth/signup', { body: account })).status).toBe(201);
    const lan = nonLoopbackAddress();
    const port = new URL(shown.urls.app).port;
    const res = await sendRaw('GET', `http://${lan}:${port}/api/dev/inbox`, { localAddress: lan, headers: { Host: new URL(shown.urls.app).host } });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('token=');
  });

  it('when a page on this machine asks under a foreign Host (DNS rebinding, or 127.0.0.1 for localhost), then 404', async () => {
    const port = new URL(shown.urls.app).port;
    for (const host of [`attacker.example:${port}`, `localhost:${port}`, 'attacker.example']) {
      const res = await sendRaw('GET', `${shown.urls.app}/api/dev/inbox`, { headers: { Host: host } });
      expect({ host, status: res.status }).toEqual({ host, status: 404 });
    }
    // The same request with APP_URL's own Host is answered: the refusal above is the Host's.
    expect((await sendRaw('GET', `${shown.urls.app}/api/dev/inbox`, { headers: { Host: new URL(shown.urls.app).host } })).status).toBe(200);
  });

  it('when it is off (klaxon api, or a public APP_URL), then the route does not exist: 404', async () => {
    const res = await dashboard(hidden.urls.app, 'GET', '/dev/inbox');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 'not_found' });
  });

  it('when deciding where to listen, then `start` keeps to loopback and `api` opens every interface, unless HOST says otherwise', () => {
    const env = { ...process.env, HOST: undefined };
    expect(hostOf(loadConfig(env), 'start')).toBe('127.0.0.1');
    expect(hostOf(loadConfig(env), 'api')).toBe('0.0.0.0');
    expect(hostOf(loadConfig({ ...env, HOST: '0.0.0.0' }), 'start')).toBe('0.0.0.0');
    expect(hostOf(loadConfig({ ...env, HOST: '10.0.0.5' }), 'api')).toBe('10.0.0.5');
  });

  it('when deciding whether to show it, then only `start` on a loopback APP_URL does', () => {
    const at = (url: string) => loadConfig({ ...process.env, APP_URL: url });
    expect(devInboxShownOf(at('http://localhost:3000'), 'start')).toBe(true);
    expect(devInboxShownOf(at('http://127.0.0.1:3000'), 'start')).toBe(true);
    expect(devInboxShownOf(at('http://localhost:3000'), 'api')).toBe(false);
    expect(devInboxShownOf(at('https://klaxon.example.com'), 'start')).toBe(false);
  });
});
