import { hashSecret } from '../../../src/domain/api-token';
import { knexOf } from '../../../src/db/knex';
import { request } from '../../support/http';
import { rowCount, seedWorkspace } from '../../support/workspace';
import { dashboardFixture, lastEmailTo, newAccount, SESSION_COOKIE, sessionCookieFrom, signUpAndLogIn, verificationTokenFor } from '../../support/dashboard';

const fx = dashboardFixture();
const { api } = fx;
const expectEnvelope = (body: any, code: string) => {
  expect(body).toEqual({ success: false, error: expect.any(String), code, timestamp: expect.any(String) });
  expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
};

describe('sign-up, verification, login, session, logout', () => {
  it('when a person signs up, verifies, logs in and out, then each step answers as the contract says and the ended session is 401', async () => {
    const account = newAccount();
    const created = await api('POST', '/auth/signup', { body: account });
    expect(created.status).toBe(201);
    expect(created.body.success).toBe(true);
    expect(created.body.data).toMatchObject({
      user: { email: account.email, name: 'Ada Owner', verified: false },
      organization: { name: account.organization_name, plan: 'FREE' },
      role: 'BILLING_OWNER',
    });
    expect(JSON.stringify(created.body)).not.toContain(account.password);

    const mail = await lastEmailTo(fx.stack.orm, account.email);
    expect(mail?.body).toContain(`${fx.stack.urls.app}/verify?token=`);
    const token = await verificationTokenFor(fx.stack.orm, account.email);
    // Only the hash of the emailed token is stored.
    expect(
      await knexOf(fx.stack.orm)('account_tokens')
        .where({ token_hash: hashSecret(token) })
        .first(),
    ).toMatchObject({ purpose: 'verify_email', used_at: null });
    expect(await knexOf(fx.stack.orm)('account_tokens').where({ token_hash: token }).first()).toBeUndefined();

    const verified = await api('POST', '/auth/verify', { body: { token } });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ success: true, data: { verified: true } });
    const again = await api('POST', '/auth/verify', { body: { token } });
    expect(again.status).toBe(400);
    expectEnvelope(again.body, 'invalid_token');

    const login = await api('POST', '/auth/login', { body: { email: account.email.toUpperCase(), password: account.password } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({
      success: true,
      data: {
        user: { email: account.email, name: 'Ada Owner', verified: true },
        organization: { id: created.body.data.organization.id, plan: 'FREE' },
        role: 'BILLING_OWNER',
        csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      },
    });
    const cookie = sessionCookieFrom(login)!;
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await knexOf(fx.stack.orm)('sessions')
      .where({ token_hash: hashSecret(cookie) })
      .first();
    expect(row).toMatchObject({ user_id: login.body.data.user.id, organization_id: login.body.data.organization.id, revoked_at: null, ip: expect.any(String) });
    expect(await knexOf(fx.stack.orm)('sessions').where({ token_hash: cookie }).first()).toBeUndefined();

    const session = { cookie, csrf: login.body.data.csrf_token as string };
    const current = await api('GET', '/auth/session', { session });
    expect(current.status).toBe(200);
    expect(current.body.data).toEqual(login.body.data);

    const out = await api('POST', '/auth/logout', { session });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()).toEqual([
      `${SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT`,
    ]);
    const after = await api('GET', '/auth/session', { session });
    expect(after.status).toBe(401);
    expectEnvelope(after.body, 'unauthorized');
  });

  it('when login succeeds, then the cookie is exactly __Host-klaxon_session with Path=/, Secure, HttpOnly, SameSite=Lax and no Domain', async () => {
    const account = newAccount();
    await api('POST', '/auth/signup', { body: account });
    const res = await api('POST', '/auth/login', { body: { email: account.email, password: account.password } });
    const cookies = res.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}; Path=/; Secure; HttpOnly; SameSite=Lax$`));
    expect(cookies[0]).not.toMatch(/domain=/i);
  });

  it('when the same person logs in twice, then each login has a new session id, cookie and CSRF value, and both sessions work', async () => {
    const a = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const res = await api('POST', '/auth/login', { body: { email: a.email, password: a.password } });
    const b = { cookie: sessionCookieFrom(res)!, csrf: res.body.data.csrf_token };
    expect(b.cookie).not.toBe(a.cookie);
    expect(b.csrf).not.toBe(a.csrf);
    const rows = await knexOf(fx.stack.orm)('sessions')
      .whereIn('token_hash', [hashSecret(a.cookie), hashSecret(b.cookie)])
      .select('id');
    expect(new Set(rows.map((r) => r.id)).size).toBe(2);
    expect((await api('GET', '/auth/session', { session: a })).status).toBe(200);
    expect((await api('GET', '/auth/session', { session: b })).status).toBe(200);
  });

  it('when a wrong password or an unknown email is tried, then both are the same 401 and no cookie is set', async () => {
    const a = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const wrong = await api('POST', '/auth/login', { body: { email: a.email, password: 'not the password' } });
    const unknown = await api('POST', '/auth/login', { body: { email: `nobody-${a.email}`, password: 'not the password' } });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expectEnvelope(res.body, 'unauthorized');
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect(wrong.body.error).toBe(unknown.body.error);
  });

  it('when a person logs out everywhere, then every one of their sessions is 401 and another person is still signed in', async () => {
    const a = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const second = await api('POST', '/auth/login', { body: { email: a.email, password: a.password } });
    const b = { cookie: sessionCookieFrom(second)!, csrf: second.body.data.csrf_token };
    const other = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const res = await api('POST', '/auth/logout-everywhere', { session: a });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ sessions_ended: 2 });
    expect((await api('GET', '/auth/session', { session: a })).status).toBe(401);
    expect((await api('GET', '/auth/session', { session: b })).status).toBe(401);
    expect((await api('GET', '/auth/session', { session: other })).status).toBe(200);
  });
});

describe('expiry', () => {
  const rowOf = (cookie: string) => knexOf(fx.stack.orm)('sessions').where({ token_hash: hashSecret(cookie) });

  it('when the absolute expiry has passed, then the session is 401 even though it was just used', async () => {
    const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    await rowOf(s.cookie).update({ expires_at: new Date(Date.now() - 1000), last_seen_at: new Date() });
    const res = await api('GET', '/auth/session', { session: s });
    expect(res.status).toBe(401);
    expectEnvelope(res.body, 'unauthorized');
  });

  it('when the session has been idle for more than 12 hours, then it is 401; idle for 11 hours, it works and is touched', async () => {
    const idle = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    await rowOf(idle.cookie).update({ last_seen_at: new Date(Date.now() - 12 * 3_600_000 - 1000) });
    expect((await api('GET', '/auth/session', { session: idle })).status).toBe(401);

    const recent = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const elevenHoursAgo = new Date(Date.now() - 11 * 3_600_000);
    await rowOf(recent.cookie).update({ last_seen_at: elevenHoursAgo });
    expect((await api('GET', '/auth/session', { session: recent })).status).toBe(200);
    const touched = await rowOf(recent.cookie).first();
    expect(new Date(touched.last_seen_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('when the session was revoked in the database, then it is 401', async () => {
    const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    await rowOf(s.cookie).update({ revoked_at: new Date() });
    expect((await api('GET', '/auth/session', { session: s })).status).toBe(401);
  });

  it('when the cookie is unknown or absent, then the session route is 401', async () => {
    expect((await api('GET', '/auth/session', { session: { cookie: 'A'.repeat(43), csrf: 'x' } })).status).toBe(401);
    expect((await api('GET', '/auth/session')).status).toBe(401);
  });
});

describe('CSRF', () => {
  it.each([
    ['no X-CSRF-Token', { csrf: null }],
    ['a wrong X-CSRF-Token', { csrf: 'B'.repeat(43) }],
    ['another session’s X-CSRF-Token', { csrf: 'other' }],
    ['a cross-site Origin with the right token', { headers: { Origin: 'https://evil.example' } }],
  ])(
    'when logout is sent with %s, then it is 403 csrf_failed and the session still works',
    async (_what, opts: { csrf?: string | null; headers?: Record<string, string> }) => {
      const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
      const otherCsrf = opts.csrf === 'other' ? (await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm)).csrf : opts.csrf;
      for (const path of ['/auth/logout', '/auth/logout-everywhere']) {
        const res = await api('POST', path, { session: s, csrf: otherCsrf, headers: opts.headers });
        expect(res.status).toBe(403);
        expectEnvelope(res.body, 'csrf_failed');
        expect(res.headers.getSetCookie()).toEqual([]);
      }
      expect((await api('GET', '/auth/session', { session: s })).status).toBe(200);
      expect(
        await knexOf(fx.stack.orm)('sessions')
          .where({ token_hash: hashSecret(s.cookie) })
          .whereNotNull('revoked_at')
          .first(),
      ).toBeUndefined();
    },
  );

  it('when the Origin is the app’s own, then the CSRF token is enough', async () => {
    const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const res = await api('POST', '/auth/logout', { session: s, headers: { Origin: new URL(fx.stack.urls.app).origin } });
    expect(res.status).toBe(200);
  });

  it('when someone logs in from the dashboard opened under another name (localhost for 127.0.0.1), then 403 csrf_failed says which address to open', async () => {
    const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const appOrigin = new URL(fx.stack.urls.app).origin;
    const res = await api('POST', '/auth/login', {
      body: { email: s.email, password: s.password },
      headers: { Origin: appOrigin.replace('127.0.0.1', 'localhost') },
    });
    expect(res.status).toBe(403);
    expectEnvelope(res.body, 'csrf_failed');
    expect(res.body.error).toContain(`open ${appOrigin}/`);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('when a sign-up comes from another origin, then it is 403 csrf_failed and nothing is created', async () => {
    const account = newAccount();
    const res = await api('POST', '/auth/signup', { body: account, headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expectEnvelope(res.body, 'csrf_failed');
    expect(await knexOf(fx.stack.orm)('users').where({ email: account.email }).first()).toBeUndefined();
  });
});

describe('credentials of other surfaces', () => {
  it('when a customer API bearer token is sent to /api without a cookie, then it is 401', async () => {
    const ws = await seedWorkspace(fx.stack.orm);
    const res = await request('GET', `${fx.stack.urls.app}/api/auth/session`, { token: ws.tokens.readWrite });
    expect(res.status).toBe(401);
    expectEnvelope(res.body, 'unauthorized');
    const post = await request('POST', `${fx.stack.urls.app}/api/auth/logout`, { token: ws.tokens.readWrite, body: {} });
    expect(post.status).toBe(401);
  });

  it('when the session cookie is sent to /api/v1 or the API-key surface, then it is 401 there', async () => {
    const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const headers = { Cookie: `${SESSION_COOKIE}=${s.cookie}`, 'X-CSRF-Token': s.csrf };
    const v1 = await request('GET', `${fx.stack.urls.app}/api/v1/organizations/${s.organizationId}/incidents`, { headers });
    expect(v1.status).toBe(401);
    expect(v1.body).toEqual({ message: expect.any(String) });
    const apiKey = await request('GET', `${fx.stack.urls.apiKey}/v1/webhooks`, { headers });
    expect(apiKey.status).toBe(401);
  });

  it('when /api/v1 has no such route, then it keeps its own error body, while /api answers in the dashboard envelope', async () => {
    const v1 = await request('GET', `${fx.stack.urls.app}/api/v1/nothing-here`);
    expect(v1.status).toBe(404);
    expect(v1.body).toEqual({ message: expect.any(String) });
    const dash = await request('GET', `${fx.stack.urls.app}/api/nothing-here`);
    expect(dash.status).toBe(404);
    expectEnvelope(dash.body, 'not_found');
  });
});

describe('bad input', () => {
  const counts = async () => Promise.all(['users', 'organizations', 'memberships', 'account_tokens'].map((t) => rowCount(fx.stack.orm, t)));

  it.each([
    ['an unknown field', { admin: true }, 'admin'],
    ['a short password', { password: 'short' }, 'password: must be at least 10 characters'],
    ['a bad email', { email: 'not-an-email' }, 'email: must be an email address'],
    ['a missing organization_name', { organization_name: undefined }, 'organization_name'],
    ['a name of the wrong type', { name: 42 }, 'name'],
  ])('when a sign-up has %s, then it is 400 naming the field and nothing is created', async (_what, change, named) => {
    const before = await counts();
    const res = await api('POST', '/auth/signup', { body: { ...newAccount(), ...change } });
    expect(res.status).toBe(400);
    expectEnvelope(res.body, 'invalid_request');
    expect(res.body.error).toContain(named);
    expect(await counts()).toEqual(before);
  });

  it('when a body is not JSON, then it is 400 in the dashboard envelope', async () => {
    const res = await request('POST', `${fx.stack.urls.app}/api/auth/login`, { rawBody: '{nope', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expectEnvelope(res.body, 'invalid_request');
  });

  it('when a login or verify body has an unknown field, then it is 400 naming it', async () => {
    const login = await api('POST', '/auth/login', { body: { email: 'a@b.test', password: 'whatever-long', remember: true } });
    expect(login.status).toBe(400);
    expect(login.body.error).toContain('remember');
    const verify = await api('POST', '/auth/verify', { body: { token: 'x', extra: 1 } });
    expect(verify.status).toBe(400);
    expect(verify.body.error).toContain('extra');
  });

  it('when an email is already registered (in any case), then sign-up is 409 email_taken and nothing more is created', async () => {
    const account = newAccount();
    expect((await api('POST', '/auth/signup', { body: account })).status).toBe(201);
    const before = await counts();
    const res = await api('POST', '/auth/signup', { body: { ...newAccount(), email: account.email.toUpperCase() } });
    expect(res.status).toBe(409);
    expectEnvelope(res.body, 'email_taken');
    expect(await counts()).toEqual(before);
  });

  it('when secrets pass through the API, then none of them reaches the logs', async () => {
    const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    await api('GET', '/auth/session', { session: s });
    const logs = fx.stack.logs.lines.join('\n');
    for (const secret of [s.password, s.cookie, s.csrf]) expect(logs).not.toContain(secret);
  });
});
