import { knexOf } from '../../../src/db/knex';
import { dashboardFixture } from '../../support/dashboard';
import { makeTestIdp, type TestIdp } from '../../support/saml-idp';
import { samlSsoWorkspace } from '../../support/saml-sign-in';
import { startPageForm, TestBrowser } from '../../support/sso-browser';
import { dnsFixture } from '../../support/sso-domains';

/**
 * Single sign-on starts only from Klaxon's own page (docs/sso.md, "Signing in"; login CSRF): the
 * GET answers a page, and only its form's POST, with this app's Origin and the page's nonce, goes
 * on to the identity provider.
 */
const dns = dnsFixture();
const fx = dashboardFixture({ env: () => ({ DNS_RESOLVERS: dns.server.address }) });
let idp: TestIdp;
beforeAll(() => {
  idp = makeTestIdp();
});

const app = () => fx.stack.urls.app;
const attempts = async () => Number((await knexOf(fx.stack.orm)('sso_login_attempts').count({ n: '*' }))[0].n);
const EVIL = 'https://evil.example';

describe('Starting single sign-on', () => {
  it('when the start page is opened, then it is a page without script whose form posts the address and a nonce also kept in a SameSite=Strict cookie; nothing is stored', async () => {
    const ws = await samlSsoWorkspace(fx.stack, idp, dns.server);
    const before = await attempts();
    const browser = new TestBrowser('');
    const email = `ada@${ws.domain}`;
    const page = await browser.request('GET', `${app()}/auth/sso/start?email=${encodeURIComponent(email)}`);
    expect({ status: page.status, location: page.location }).toEqual({ status: 200, location: null });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).toContain('Continue with SSO');
    const form = startPageForm(page.body, app());
    expect(form.action).toBe(`${app()}/auth/sso/start`);
    expect(form.fields).toEqual({ email, nonce: expect.stringMatching(/^[\w-]{43}$/) });
    const cookie = (page.headers['set-cookie'] ?? []).find((c) => c.startsWith('__Host-klaxon_sso_start='));
    expect(cookie).toBe(`__Host-klaxon_sso_start=${form.fields.nonce}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=600`);
    // No inline script anywhere; the form may lead to the IdP (its POST answers a redirect there); the POST carries this page's Origin.
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    expect(page.headers['content-security-policy']).toContain("form-action 'self' https:");
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(await attempts()).toBe(before);
  });

  it('when another site links or posts to /auth/sso/start, then the browser never reaches the IdP; the nonced same-origin POST does', async () => {
    const ws = await samlSsoWorkspace(fx.stack, idp, dns.server);
    const victim = new TestBrowser('');
    const startUrl = `${app()}/auth/sso/start?organization_id=${ws.organizationId}`;
    // A cross-site link: the page, nothing more.
    const linked = await victim.request('GET', startUrl, undefined, { Referer: `${EVIL}/`, 'Sec-Fetch-Site': 'cross-site' });
    expect({ status: linked.status, location: linked.location }).toEqual({ status: 200, location: null });
    const { fields } = startPageForm(linked.body, app());
    const before = await attempts();
    const refused = async (origin: Record<string, string>, form: Record<string, string>) => {
      const res = await victim.request('POST', `${app()}/auth/sso/start`, form, origin);
      expect({ status: res.status, location: res.location, code: JSON.parse(res.body).code }).toEqual({ status: 403, location: null, code: 'csrf_failed' });
    };
    // A cross-site form, even one that somehow knew the page's nonce.
    await refused({ Origin: EVIL }, fields);
    await refused({ Origin: 'null' }, fields);
    await refused({}, fields);
    // Same origin, but another browser's nonce (this one's cookie is spent by the try); then no nonce cookie at all (SameSite=Strict: what a cross-site post carries).
    const others = startPageForm((await new TestBrowser('').request('GET', startUrl)).body, app()).fields;
    await refused({ Origin: new URL(app()).origin }, others);
    await refused({ Origin: new URL(app()).origin }, fields);
    expect(await attempts()).toBe(before);

    const started = await victim.startSso(startUrl);
    expect(started.status).toBe(302);
    expect(`${new URL(started.location!).origin}${new URL(started.location!).pathname}`).toBe(idp.ssoUrl);
    expect(await attempts()).toBe(before + 1);
  });

  it('when the start page or its form has both targets, neither, or a malformed one, then 400 names the field and nothing is stored', async () => {
    const ws = await samlSsoWorkspace(fx.stack, idp, dns.server);
    const before = await attempts();
    const browser = new TestBrowser('');
    const get = async (query: string) => {
      const res = await browser.request('GET', `${app()}/auth/sso/start${query}`);
      return { status: res.status, ...JSON.parse(res.body) };
    };
    expect(await get('?email=not-an-email')).toMatchObject({ status: 400, code: 'invalid_request', error: expect.stringMatching(/^email:/) });
    expect(await get(`?email=a@${ws.domain}&organization_id=${ws.organizationId}`)).toMatchObject({ status: 400, error: /one of them/ });
    expect(await get('')).toMatchObject({ status: 400, error: /one of them/ });
    expect(await get(`?organization_id=42`)).toMatchObject({ status: 400, error: expect.stringMatching(/^organization_id:/) });
    expect(await get(`?email=${'a'.repeat(320)}@${ws.domain}`)).toMatchObject({ status: 400, error: expect.stringMatching(/^email:/) });

    const page = await browser.request('GET', `${app()}/auth/sso/start?organization_id=${ws.organizationId}`);
    const { fields } = startPageForm(page.body, app());
    const origin = { Origin: new URL(app()).origin };
    const post = async (form: Record<string, string>) => {
      const res = await browser.request('POST', `${app()}/auth/sso/start`, form, origin);
      return { status: res.status, ...JSON.parse(res.body) };
    };
    expect(await post({ ...fields, organization_id: 'x' })).toMatchObject({ status: 400, error: expect.stringMatching(/^organization_id:/) });
    expect(await post({ ...fields, extra: '1' })).toMatchObject({ status: 400, error: /extra/ });
    expect(await post({ ...fields, nonce: 'n'.repeat(5000) })).toMatchObject({ status: 413 });
    expect(await attempts()).toBe(before);
  });
});
