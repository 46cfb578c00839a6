import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { addUser, setPlan } from '../../../src/services/workspace';
import { startTestDnsServer, type TestDnsServer } from '../../fakes/dns-server';
import { makeIdpCert, startTestIdp, type TestIdp } from '../../fakes/oidc-idp';
import type { TestCert } from '../../../src/integrations/testing/tls-cert';
import { dashboard, memberSession, sessionCookieFrom, signUpAndLogIn, SESSION_COOKIE, type DashboardSession } from '../../support/dashboard';
import { TestBrowser } from '../../support/sso-browser';
import { proveSsoDomain } from '../../support/sso-domains';
import { startTestStack, type TestStack } from '../../support/stack';

/**
 * OpenID Connect sign-in end to end (docs/sso.md): a real OpenID provider (oidc-provider) over
 * HTTPS with a test certificate, in a child process; Klaxon's real app listener; a browser without
 * a screen that follows the redirects and fills in the IdP's login form.
 */
let stack: TestStack;
let idp: TestIdp;
let cert: TestCert;
let dns: TestDnsServer;

beforeAll(async () => {
  cert = makeIdpCert();
  // The workspaces prove their domains on this DNS server (DNS_RESOLVERS).
  dns = await startTestDnsServer();
  // The IdP is on loopback (a private address) and signs with the test certificate.
  stack = await startTestStack({ worker: false, env: { ALLOW_PRIVATE_TARGETS: 'true', SSO_CA_FILE: cert.certFile, DNS_RESOLVERS: dns.address } });
  idp = await startTestIdp(`${stack.urls.app}/auth/sso/oidc/callback`, cert);
});
afterAll(async () => {
  await idp?.stop();
  await stack?.stop();
  await dns?.stop();
});

const api = (method: string, path: string, opts: Parameters<typeof dashboard>[3] = {}) => dashboard(stack.urls.app, method, path, opts);

/** A BUSINESS workspace whose Billing Owner set up OIDC for a fresh domain, proven. */
async function ssoWorkspace(settings: { default_role?: string; require_sso?: boolean } = {}) {
  const owner = await signUpAndLogIn(stack.urls.app, stack.orm);
  await setPlan(stack.orm, owner.organizationId, 'BUSINESS');
  const domain = `acme-${randomUUID().slice(0, 8)}.test`;
  const put = await api('PUT', '/sso', {
    session: owner,
    body: {
      type: 'oidc',
      issuer: idp.issuer,
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
      domains: [domain],
      default_role: settings.default_role ?? 'MEMBER',
      require_sso: settings.require_sso ?? false,
      password: owner.password,
    },
  });
  expect(put.status).toBe(200);
  await proveSsoDomain(stack.urls.app, owner, dns, domain);
  return { owner, domain, organizationId: owner.organizationId };
}

/** Starts at Klaxon's start page, signs in at the IdP as `login`, and answers the URL the IdP sent the browser back to (not yet opened). */
async function throughIdp(browser: TestBrowser, startPath: string, login: string, tamper?: (url: URL) => void): Promise<string> {
  const start = await browser.startSso(`${stack.urls.app}${startPath}`);
  expect(start.status).toBe(302);
  const authorization = new URL(start.location!);
  expect(authorization.origin).toBe(idp.issuer);
  tamper?.(authorization);
  return browser.signInAtIdp(authorization.href, stack.urls.app, login);
}

const sessionOfBrowser = (browser: TestBrowser) => browser.cookie(new URL(stack.urls.app).origin, SESSION_COOKIE);

/** The browser keeps the cookies an API answer set (a step-up's attempt cookie), as a real one would. */
function carryCookies(browser: TestBrowser, answer: { headers: Headers }): void {
  for (const line of answer.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    browser.setCookie(new URL(stack.urls.app).origin, pair.slice(0, eq), pair.slice(eq + 1));
  }
}

describe('OIDC sign-in against a real OpenID provider', () => {
  it('when the connection is tested before saving, then discovery reaches the IdP and nothing is stored; a wrong issuer is named', async () => {
    const owner = await signUpAndLogIn(stack.urls.app, stack.orm);
    await setPlan(stack.orm, owner.organizationId, 'BUSINESS');
    const body = { type: 'oidc', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret, domains: ['tested.example'] };
    const ok = await api('POST', '/sso/test', { session: owner, body });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ issuer: idp.issuer, authorization_endpoint: `${idp.issuer}/auth`, token_endpoint: `${idp.issuer}/token` });
    expect(await knexOf(stack.orm)('sso_connections').where({ organization_id: owner.organizationId }).first()).toBeUndefined();
    const wrong = await api('POST', '/sso/test', { session: owner, body: { ...body, issuer: `${idp.issuer}/elsewhere` } });
    expect({ status: wrong.status, code: wrong.body.code }).toEqual({ status: 401, code: 'sso_failed' });
    expect(wrong.body.error).toMatch(/discovery/);
  });

  it('when an unknown person of a listed domain signs in, then they become a member with the default role, signed in as by a password login', async () => {
    const ws = await ssoWorkspace({ default_role: 'TEAM_MANAGER' });
    const email = `new-${randomUUID().slice(0, 8)}@${ws.domain}`;
    const browser = new TestBrowser(cert.cert);
    const start = await browser.startSso(`${stack.urls.app}/auth/sso/start?email=${encodeURIComponent(email)}`);
    expect(start.status).toBe(302);
    const authorization = new URL(start.location!);
    // Authorization code with PKCE (S256), state and nonce; the address as a hint.
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: idp.clientId,
      redirect_uri: `${stack.urls.app}/auth/sso/oidc/callback`,
      code_challenge_method: 'S256',
      login_hint: email,
      state: expect.any(String),
      nonce: expect.any(String),
      code_challenge: expect.any(String),
    });
    const back = await browser.signInAtIdp(authorization.href, stack.urls.app, email);
    const callback = await browser.request('GET', back);
    expect({ status: callback.status, location: callback.location }).toEqual({ status: 302, location: `${stack.urls.app}/` });
    // The same cookie a password login sets.
    const line = (callback.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(line).toMatch(new RegExp(`^${SESSION_COOKIE}=[\\w-]{43}; Path=/; Secure; HttpOnly; SameSite=Lax$`));

    const who = await api('GET', '/auth/session', { session: { cookie: sessionOfBrowser(browser)!, csrf: '' } });
    expect(who.status).toBe(200);
    expect(who.body.data).toMatchObject({ user: { email, verified: true }, organization: { id: ws.organizationId }, role: 'TEAM_MANAGER' });
    const user = await knexOf(stack.orm)('users').select('password_hash').where({ email }).first();
    expect(user.password_hash).toBeNull();
    const identity = await knexOf(stack.orm)('external_identities').select('issuer', 'subject').where({ email }).first();
    expect(identity).toEqual({ issuer: idp.issuer, subject: email });
    const audit = await api('GET', '/audit-log?action=sso.login', { session: ws.owner });
    expect(audit.body.data[0]).toMatchObject({ action: 'sso.login', actor: { label: email }, details: { just_in_time: true, role: 'TEAM_MANAGER' } });
    // Neither the code, the state nor the client secret reaches the logs.
    const logged = stack.logs.lines.join('\n');
    for (const secret of [new URL(back).searchParams.get('code')!, new URL(back).searchParams.get('state')!, idp.clientSecret])
      expect(logged).not.toContain(secret);
    // The attempt was spent: the same return again is refused.
    const replay = await browser.request('GET', back);
    expect(replay.status).toBe(400);
    expect(JSON.parse(replay.body)).toMatchObject({ success: false, code: 'sso_state_invalid' });
  });

  it('when an existing member signs in with SSO, then they keep their account and role', async () => {
    const ws = await ssoWorkspace();
    const admin = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');
    // memberSession's address is in example.test: sign in through the workspace id.
    const browser = new TestBrowser(cert.cert);
    const back = await throughIdp(browser, `/auth/sso/start?organization_id=${ws.organizationId}`, admin.email);
    expect((await browser.request('GET', back)).status).toBe(302);
    const who = await api('GET', '/auth/session', { session: { cookie: sessionOfBrowser(browser)!, csrf: '' } });
    expect(who.body.data).toMatchObject({ user: { id: admin.userId }, role: 'ACCOUNT_ADMIN' });
  });

  it('when the address is in no listed domain and not a member, then the sign-in is refused and nobody is created', async () => {
    const ws = await ssoWorkspace();
    const stranger = `stranger-${randomUUID().slice(0, 8)}@elsewhere.test`;
    const browser = new TestBrowser(cert.cert);
    const back = await throughIdp(browser, `/auth/sso/start?organization_id=${ws.organizationId}`, stranger);
    const res = await browser.request('GET', back);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'sso_domain_not_allowed' });
    expect(sessionOfBrowser(browser)).toBeUndefined();
    expect(await knexOf(stack.orm)('users').where({ email: stranger }).first()).toBeUndefined();
    // An email whose domain routes nowhere is not sent to any IdP.
    const nowhere = await browser.startSso(`${stack.urls.app}/auth/sso/start?email=${encodeURIComponent(stranger)}`);
    expect(nowhere.status).toBe(404);
  });

  it('when the address belongs to an account made elsewhere, then the IdP cannot take it over: it must be invited first', async () => {
    const ws = await ssoWorkspace();
    const elsewhere = await signUpAndLogIn(stack.urls.app, stack.orm);
    const email = `taken-${randomUUID().slice(0, 8)}@${ws.domain}`;
    await addUser(stack.orm, { organizationId: elsewhere.organizationId, email, password: 'correct horse battery', role: 'MEMBER', verified: true });
    const browser = new TestBrowser(cert.cert);
    const res = await browser.request('GET', await throughIdp(browser, `/auth/sso/start?email=${encodeURIComponent(email)}`, email));
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'sso_account_exists' });
    const user = await knexOf(stack.orm)('users').select('id').where({ email }).first();
    expect(await knexOf(stack.orm)('memberships').where({ user_id: user.id, organization_id: ws.organizationId }).first()).toBeUndefined();
    expect(await knexOf(stack.orm)('external_identities').where({ user_id: user.id }).first()).toBeUndefined();
  });

  it('when the IdP has not verified the address, then the sign-in is refused (email_verified required)', async () => {
    const ws = await ssoWorkspace();
    const email = `unverified-${randomUUID().slice(0, 8)}@${ws.domain}`;
    const browser = new TestBrowser(cert.cert);
    const back = await throughIdp(browser, `/auth/sso/start?email=${encodeURIComponent(email)}`, email);
    const res = await browser.request('GET', back);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'sso_email_unverified' });
    expect(await knexOf(stack.orm)('users').where({ email }).first()).toBeUndefined();
  });

  it('when the state is unknown, or the return comes to another browser, then it is refused', async () => {
    const ws = await ssoWorkspace();
    const email = `p-${randomUUID().slice(0, 8)}@${ws.domain}`;
    const browser = new TestBrowser(cert.cert);
    const back = new URL(await throughIdp(browser, `/auth/sso/start?email=${encodeURIComponent(email)}`, email));
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state');
    const wrong = await browser.request('GET', forged.href);
    expect(wrong.status).toBe(400);
    expect(JSON.parse(wrong.body)).toMatchObject({ code: 'sso_state_invalid' });
    // Another browser (no cookie of the one that started it): a login CSRF is refused, and the attempt is spent.
    const other = new TestBrowser(cert.cert);
    const stolen = await other.request('GET', back.href);
    expect(stolen.status).toBe(400);
    expect(JSON.parse(stolen.body)).toMatchObject({ code: 'sso_state_invalid' });
    expect((await browser.request('GET', back.href)).status).toBe(400);
    expect(await knexOf(stack.orm)('users').where({ email }).first()).toBeUndefined();
  });

  it('when the nonce the IdP signed is not the one Klaxon sent, then the sign-in is refused', async () => {
    const ws = await ssoWorkspace();
    const email = `n-${randomUUID().slice(0, 8)}@${ws.domain}`;
    const browser = new TestBrowser(cert.cert);
    const back = await throughIdp(browser, `/auth/sso/start?email=${encodeURIComponent(email)}`, email, (url) =>
      url.searchParams.set('nonce', 'an-attackers-nonce'),
    );
    const res = await browser.request('GET', back);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'sso_failed', error: expect.stringMatching(/nonce/) });
    expect(sessionOfBrowser(browser)).toBeUndefined();
  });

  it('when the PKCE challenge the IdP saw is not Klaxon’s, then the code is not redeemed', async () => {
    const ws = await ssoWorkspace();
    const email = `k-${randomUUID().slice(0, 8)}@${ws.domain}`;
    const browser = new TestBrowser(cert.cert);
    const back = await throughIdp(browser, `/auth/sso/start?email=${encodeURIComponent(email)}`, email, (url) =>
      url.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
    );
    const res = await browser.request('GET', back);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'sso_failed' });
  });

  it('when require_sso is on, then members get 403 sso_required on password login, the Billing Owner still gets in, and SSO still works', async () => {
    const ws = await ssoWorkspace({ require_sso: true });
    const member = await addMemberWithPassword(ws.organizationId, 'MEMBER');
    const refused = await api('POST', '/auth/login', { body: { email: member.email, password: member.password } });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'sso_required' });
    expect(sessionCookieFrom(refused)).toBeUndefined();
    const breakGlass = await api('POST', '/auth/login', { body: { email: ws.owner.email, password: ws.owner.password } });
    expect(breakGlass.status).toBe(200);
    const browser = new TestBrowser(cert.cert);
    const back = await throughIdp(browser, `/auth/sso/start?organization_id=${ws.organizationId}`, member.email);
    expect((await browser.request('GET', back)).status).toBe(302);
    // A session opened by SSO stays in its workspace.
    const bound = await api('POST', '/auth/switch-workspace', {
      session: { cookie: sessionOfBrowser(browser)!, csrf: (await sessionView(browser)).csrf_token },
      body: { organization_id: ws.organizationId },
    });
    expect({ status: bound.status, code: bound.body.code }).toEqual({ status: 403, code: 'sso_session_bound' });
  });

  it('when the workspace leaves BUSINESS, then SSO sign-in is refused with plan_limit_reached and require_sso no longer applies', async () => {
    const ws = await ssoWorkspace({ require_sso: true });
    const member = await addMemberWithPassword(ws.organizationId, 'MEMBER');
    await setPlan(stack.orm, ws.organizationId, 'PRO');
    const browser = new TestBrowser(cert.cert);
    const start = await browser.startSso(`${stack.urls.app}/auth/sso/start?organization_id=${ws.organizationId}`);
    expect(start.status).toBe(403);
    expect(JSON.parse(start.body)).toMatchObject({ code: 'plan_limit_reached' });
    expect((await api('POST', '/auth/login', { body: { email: member.email, password: member.password } })).status).toBe(200);
  });

  it('when a person who only signs in with SSO steps up, then the IdP authenticates them again (max_age=0) and sensitive actions pass', async () => {
    const ws = await ssoWorkspace({ default_role: 'ACCOUNT_ADMIN' });
    const email = `admin-${randomUUID().slice(0, 8)}@${ws.domain}`;
    const browser = new TestBrowser(cert.cert);
    expect((await browser.request('GET', await throughIdp(browser, `/auth/sso/start?email=${encodeURIComponent(email)}`, email))).status).toBe(302);
    const session = { cookie: sessionOfBrowser(browser)!, csrf: (await sessionView(browser)).csrf_token };
    const before = await api('PUT', '/sso', { session, body: { type: 'oidc', issuer: idp.issuer, client_id: idp.clientId, domains: [ws.domain] } });
    expect({ status: before.status, code: before.body.code }).toEqual({ status: 403, code: 'step_up_required' });

    const started = await api('POST', '/auth/sso/step-up', { session });
    expect(started.status).toBe(200);
    carryCookies(browser, started);
    const authorization = new URL(started.body.data.redirect_url);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({ max_age: '0', prompt: 'login' });
    const back = await browser.signInAtIdp(authorization.href, stack.urls.app, email);
    const done = await browser.request('GET', back);
    expect({ status: done.status, location: done.location }).toEqual({ status: 302, location: `${stack.urls.app}/` });

    const after = await api('PUT', '/sso', { session, body: { type: 'oidc', issuer: idp.issuer, client_id: idp.clientId, domains: [ws.domain] } });
    expect(after.status).toBe(200);
    const audit = await api('GET', '/audit-log?action=sso.step_up', { session: ws.owner });
    expect(audit.body.data[0]).toMatchObject({ action: 'sso.step_up', actor: { label: email } });
  });

  it('when the IdP signs in someone else at a step-up, then the session is not stepped up', async () => {
    const ws = await ssoWorkspace({ default_role: 'ACCOUNT_ADMIN' });
    const email = `a-${randomUUID().slice(0, 8)}@${ws.domain}`;
    const browser = new TestBrowser(cert.cert);
    expect((await browser.request('GET', await throughIdp(browser, `/auth/sso/start?email=${encodeURIComponent(email)}`, email))).status).toBe(302);
    const session = { cookie: sessionOfBrowser(browser)!, csrf: (await sessionView(browser)).csrf_token };
    const started = await api('POST', '/auth/sso/step-up', { session });
    carryCookies(browser, started);
    const back = await browser.signInAtIdp(started.body.data.redirect_url, stack.urls.app, `other-${randomUUID().slice(0, 8)}@${ws.domain}`);
    const res = await browser.request('GET', back);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'step_up_failed' });
    const still = await api('DELETE', '/sso', { session });
    expect({ status: still.status, code: still.body.code }).toEqual({ status: 403, code: 'step_up_required' });
  });

  it('when the IdP answers a step-up with an old auth_time (it ignored max_age=0 and prompt=login), then the session is not stepped up', async () => {
    const ws = await ssoWorkspace({ default_role: 'ACCOUNT_ADMIN' });
    const email = `s-${randomUUID().slice(0, 8)}@${ws.domain}`;
    const browser = new TestBrowser(cert.cert);
    expect((await browser.request('GET', await throughIdp(browser, `/auth/sso/start?email=${encodeURIComponent(email)}`, email))).status).toBe(302);
    const session = { cookie: sessionOfBrowser(browser)!, csrf: (await sessionView(browser)).csrf_token };
    const started = await api('POST', '/auth/sso/step-up', { session });
    carryCookies(browser, started);
    // An IdP that does not honour the request: no forced login, and a sign-in it reports as ten minutes old.
    const authorization = new URL(started.body.data.redirect_url);
    authorization.searchParams.delete('max_age');
    authorization.searchParams.delete('prompt');
    browser.forget(idp.issuer);
    const back = await browser.signInAtIdp(authorization.href, stack.urls.app, email, { authenticatedSecondsAgo: 600 });
    const res = await browser.request('GET', back);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(res.body).code).toMatch(/^(sso_failed|step_up_failed)$/);
    expect(JSON.parse(res.body).error).toMatch(/auth_time|authentication/);
    const still = await api('PUT', '/sso', { session, body: { type: 'oidc', issuer: idp.issuer, client_id: idp.clientId, domains: [ws.domain] } });
    expect({ status: still.status, code: still.body.code }).toEqual({ status: 403, code: 'step_up_required' });
  });

  it('when two workspaces use the same OpenID provider, then a person’s links stay per workspace', async () => {
    const a = await ssoWorkspace();
    const b = await ssoWorkspace();
    const email = `both-${randomUUID().slice(0, 8)}@${a.domain}`;
    const atA = new TestBrowser(cert.cert);
    expect((await atA.request('GET', await throughIdp(atA, `/auth/sso/start?email=${encodeURIComponent(email)}`, email))).status).toBe(302);
    const user = await knexOf(stack.orm)('users').select('id').where({ email }).first();
    // Invited into B too: B's sign-in makes B's own link to the same issuer and subject.
    await addUser(stack.orm, { organizationId: b.organizationId, email, password: 'unused long password', role: 'MEMBER', verified: true });
    const atB = new TestBrowser(cert.cert);
    expect((await atB.request('GET', await throughIdp(atB, `/auth/sso/start?organization_id=${b.organizationId}`, email))).status).toBe(302);
    const links = await knexOf(stack.orm)('external_identities').select('organization_id', 'user_id').where({ issuer: idp.issuer, subject: email });
    expect(links.sort((x, y) => x.organization_id.localeCompare(y.organization_id))).toEqual(
      [
        { organization_id: a.organizationId, user_id: user.id },
        { organization_id: b.organizationId, user_id: user.id },
      ].sort((x, y) => x.organization_id.localeCompare(y.organization_id)),
    );
  });
});

/** A member with a password (added by an admin, as before SSO). */
async function addMemberWithPassword(organizationId: string, role: 'MEMBER' | 'ACCOUNT_ADMIN'): Promise<DashboardSession> {
  const email = `m-${randomUUID().slice(0, 8)}@example.test`;
  const password = 'correct horse battery';
  await addUser(stack.orm, { organizationId, email, password, role, verified: true });
  return { cookie: '', csrf: '', email, password };
}

/** The browser's session as GET /api/auth/session answers it. */
async function sessionView(browser: TestBrowser): Promise<{ csrf_token: string }> {
  const res = await api('GET', '/auth/session', { session: { cookie: sessionOfBrowser(browser)!, csrf: '' } });
  return res.body.data;
}
