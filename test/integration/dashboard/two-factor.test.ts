import { URI, TOTP } from 'otpauth';
import { hashSecret } from '../../../src/domain/api-token';
import { knexOf } from '../../../src/db/knex';
import { setPlan } from '../../../src/services/workspace';
import { request } from '../../support/http';
import {
  dashboardFixture,
  expectDashboardError,
  newAccount,
  sessionCookieFrom,
  signUpAndLogIn,
  type DashboardSession,
  verificationTokenFor,
} from '../../support/dashboard';
import { totpCode, wrongTotpCode } from '../../support/totp';

const fx = dashboardFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);
const expectError = expectDashboardError;
const sessionFrom = (res: { body: any; headers: Headers }, base: DashboardSession) => ({
  ...base,
  cookie: sessionCookieFrom(res as never)!,
  csrf: res.body.data.csrf_token as string,
});
const auditActions = async (owner: DashboardSession, action: string) =>
  (await api('GET', `/audit-log?action=${action}`, { session: owner })).body.data as any[];

/** A verified owner who has turned two-factor on: the rotated session, the secret and the recovery codes. */
async function ownerWithTwoFactor() {
  const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
  const setup = await api('POST', '/auth/2fa/setup', { session: s, body: { password: s.password } });
  const secret = setup.body.data.secret as string;
  const confirm = await api('POST', '/auth/2fa/confirm', { session: s, body: { code: totpCode(secret) } });
  if (confirm.status !== 200) throw new Error(`confirm: ${confirm.status} ${JSON.stringify(confirm.body)}`);
  return { ...sessionFrom(confirm, s), organizationId: s.organizationId, userId: s.userId, secret, codes: confirm.body.data.recovery_codes as string[] };
}

describe('the whole two-factor journey', () => {
  it('when a person signs up, enrols in two-factor, logs in with a code and a recovery code, steps up and makes an API token, then the token works on /api/v1 until revoked', async () => {
    const account = newAccount();
    expect((await api('POST', '/auth/signup', { body: account })).status).toBe(201);
    expect((await api('POST', '/auth/verify', { body: { token: await verificationTokenFor(fx.stack.orm, account.email) } })).status).toBe(200);
    const login = await api('POST', '/auth/login', { body: { email: account.email, password: account.password } });
    const first: DashboardSession = { cookie: sessionCookieFrom(login)!, csrf: login.body.data.csrf_token, email: account.email, password: account.password };
    const orgId = login.body.data.organization.id as string;

    // Enrol: the app gets a standard otpauth URI (and a QR code of it); the database only a sealed secret.
    const setup = await api('POST', '/auth/2fa/setup', { session: first, body: { password: first.password } });
    expect(setup.status).toBe(200);
    const { otpauth_uri, secret, qr_svg } = setup.body.data;
    const parsed = URI.parse(otpauth_uri) as TOTP;
    expect(parsed).toBeInstanceOf(TOTP);
    expect({
      issuer: parsed.issuer,
      label: parsed.label,
      algorithm: parsed.algorithm,
      digits: parsed.digits,
      period: parsed.period,
      secret: parsed.secret.base32,
    }).toEqual({ issuer: 'Klaxon', label: account.email, algorithm: 'SHA1', digits: 6, period: 30, secret });
    expect(qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const pendingRow = await db()('users').where({ email: account.email }).first();
    expect(pendingRow).toMatchObject({ totp_secret: null, totp_enabled_at: null, totp_pending_secret: expect.stringMatching(/^v1\./) });
    expect(pendingRow.totp_pending_secret).not.toContain(secret);

    // Confirm: two-factor is on, ten codes are shown once, the session is rotated.
    const confirm = await api('POST', '/auth/2fa/confirm', { session: first, body: { code: totpCode(secret) } });
    expect(confirm.status).toBe(200);
    const codes = confirm.body.data.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    const rotated = sessionFrom(confirm, first);
    expect(rotated.cookie).not.toBe(first.cookie);
    expect(rotated.csrf).not.toBe(first.csrf);
    expect((await api('GET', '/auth/session', { session: first })).status).toBe(401);
    expect((await api('GET', '/auth/session', { session: rotated })).status).toBe(200);
    const status = await api('GET', '/auth/2fa', { session: rotated });
    expect(status.body.data).toEqual({ enabled: true, enabled_at: expect.any(String), recovery_codes_left: 10 });
    const stored = await db()('recovery_codes').where({ user_id: login.body.data.user.id }).select('code_hash');
    expect(stored.map((r) => r.code_hash).sort()).toEqual(codes.map((c) => hashSecret(c)).sort());

    // Log in: the password alone is not enough; a code is.
    const noCode = await api('POST', '/auth/login', { body: { email: account.email, password: account.password } });
    expectError(noCode, 401, 'totp_required');
    expect(noCode.headers.getSetCookie()).toEqual([]);
    const withCode = await api('POST', '/auth/login', { body: { email: account.email, password: account.password, totp_code: totpCode(secret, 1) } });
    expect(withCode.status).toBe(200);
    const second = sessionFrom(withCode, first);
    expect(
      await db()('sessions')
        .where({ token_hash: hashSecret(second.cookie) })
        .first(),
    ).toMatchObject({ stepped_up_at: expect.anything() });

    // A recovery code logs in once.
    const recovered = await api('POST', '/auth/login', { body: { email: account.email, password: account.password, recovery_code: codes[0].toUpperCase() } });
    expect(recovered.status).toBe(200);
    expectError(await api('POST', '/auth/login', { body: { email: account.email, password: account.password, recovery_code: codes[0] } }), 401, 'totp_invalid');
    expect((await api('GET', '/auth/2fa', { session: second })).body.data.recovery_codes_left).toBe(9);

    // Step up (the login's own step-up is let lapse), then create a token.
    await setPlan(fx.stack.orm, orgId, 'PRO');
    await db()('sessions')
      .update({ stepped_up_at: null })
      .where({ token_hash: hashSecret(second.cookie) });
    expectError(await api('POST', '/tokens', { session: second, body: { access: 'READ_ONLY', days: 7 } }), 403, 'step_up_required');
    const stepUp = await api('POST', '/auth/step-up', { session: second, body: { password: account.password } });
    expect(stepUp.status).toBe(200);
    expect(new Date(stepUp.body.data.fresh_until).getTime() - new Date(stepUp.body.data.stepped_up_at).getTime()).toBe(5 * 60_000);
    const created = await api('POST', '/tokens', { session: second, body: { access: 'READ_ONLY', days: 7, name: 'grafana' } });
    expect(created.status).toBe(201);
    const token = created.body.data.token as string;
    expect(token).toMatch(/^klx_[A-Za-z0-9_-]{43}$/);

    const incidents = `${fx.stack.urls.app}/api/v1/organizations/${orgId}/incidents`;
    expect((await request('GET', incidents, { token })).status).toBe(200);
    // The token is for /api/v1 only: the dashboard refuses it.
    expect((await request('GET', `${fx.stack.urls.app}/api/tokens`, { token })).status).toBe(401);

    expect((await api('DELETE', `/tokens/${created.body.data.id}`, { session: second })).status).toBe(200);
    expect((await request('GET', incidents, { token })).status).toBe(401);
    expect((await auditActions(second, 'two_factor.enable')).length).toBe(1);
  });
});

describe('enrolment', () => {
  it('when the confirmation code is wrong, then it is 400 totp_invalid and two-factor stays off; confirming without setup is 409', async () => {
    const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    expectError(await api('POST', '/auth/2fa/confirm', { session: s, body: { code: '123456' } }), 409, 'two_factor_not_started');
    const { secret } = (await api('POST', '/auth/2fa/setup', { session: s, body: { password: s.password } })).body.data;
    expectError(await api('POST', '/auth/2fa/confirm', { session: s, body: { code: wrongTotpCode(secret) } }), 400, 'totp_invalid');
    expect((await api('GET', '/auth/2fa', { session: s })).body.data).toEqual({ enabled: false, enabled_at: null, recovery_codes_left: 0 });
    expect((await api('GET', '/auth/session', { session: s })).status).toBe(200);
  });

  it('when setup comes with no factor and no step-up in the last 5 minutes, then 403 step_up_required and no secret is issued; a wrong password is step_up_failed', async () => {
    const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    expectError(await api('POST', '/auth/2fa/setup', { session: s }), 403, 'step_up_required');
    expectError(await api('POST', '/auth/2fa/setup', { session: s, body: { password: 'not the password' } }), 403, 'step_up_failed');
    expect(await db()('users').where({ id: s.userId }).first()).toMatchObject({ totp_pending_secret: null });
    // A step-up first lets the next 5 minutes' setup through without a factor.
    expect((await api('POST', '/auth/step-up', { session: s, body: { password: s.password } })).status).toBe(200);
    expect((await api('POST', '/auth/2fa/setup', { session: s })).status).toBe(200);
  });

  it('when two-factor is already on, then setup is 409 two_factor_enabled', async () => {
    const o = await ownerWithTwoFactor();
    expectError(await api('POST', '/auth/2fa/setup', { session: o, body: { password: o.password } }), 409, 'two_factor_enabled');
  });

  it('when setup or confirm is sent without X-CSRF-Token, then it is 403 csrf_failed and nothing changes', async () => {
    const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    expectError(await api('POST', '/auth/2fa/setup', { session: s, csrf: null, body: { password: s.password } }), 403, 'csrf_failed');
    expect(await db()('users').where({ id: s.userId }).first()).toMatchObject({ totp_pending_secret: null });
    const { secret } = (await api('POST', '/auth/2fa/setup', { session: s, body: { password: s.password } })).body.data;
    expectError(await api('POST', '/auth/2fa/confirm', { session: s, csrf: null, body: { code: totpCode(secret) } }), 403, 'csrf_failed');
    expect(await db()('users').where({ id: s.userId }).first()).toMatchObject({ totp_enabled_at: null });
  });

  it.each([
    ['an unknown field', { code: '123456', remember: true }, 'remember'],
    ['a code of the wrong type', { code: 123456 }, 'code'],
    ['a code too long', { code: '1'.repeat(17) }, 'code'],
  ])('when confirm has %s, then it is 400 naming the field and nothing changes', async (_what, body, field) => {
    const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    await api('POST', '/auth/2fa/setup', { session: s, body: { password: s.password } });
    const res = await api('POST', '/auth/2fa/confirm', { session: s, body });
    expectError(res, 400, 'invalid_request');
    expect(res.body.error).toContain(field);
    expect(await db()('users').where({ id: s.userId }).first()).toMatchObject({ totp_enabled_at: null });
  });
});

describe('codes at login', () => {
  it('when a TOTP code has been used, then the same code is refused at login and at step-up', async () => {
    const o = await ownerWithTwoFactor();
    const code = totpCode(o.secret, 1);
    expect((await api('POST', '/auth/login', { body: { email: o.email, password: o.password, totp_code: code } })).status).toBe(200);
    expectError(await api('POST', '/auth/login', { body: { email: o.email, password: o.password, totp_code: code } }), 401, 'totp_invalid');
    expectError(await api('POST', '/auth/step-up', { session: o, body: { totp_code: code } }), 403, 'step_up_failed');
    // Codes of earlier steps (the one that confirmed enrolment among them) are refused too.
    expectError(await api('POST', '/auth/login', { body: { email: o.email, password: o.password, totp_code: totpCode(o.secret, -1) } }), 401, 'totp_invalid');
  });

  it('when wrong codes are sent 5 times, then the next login is 429 even with the right code; a wrong password is still plain 401', async () => {
    const o = await ownerWithTwoFactor();
    expectError(
      await api('POST', '/auth/login', { body: { email: o.email, password: 'not the password', totp_code: wrongTotpCode(o.secret) } }),
      401,
      'unauthorized',
    );
    for (let i = 0; i < 4; i++) {
      expectError(
        await api('POST', '/auth/login', { body: { email: o.email, password: o.password, totp_code: wrongTotpCode(o.secret) } }),
        401,
        'totp_invalid',
      );
    }
    const throttled = await api('POST', '/auth/login', { body: { email: o.email, password: o.password, totp_code: totpCode(o.secret, 1) } });
    expectError(throttled, 429, 'rate_limited');
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('when both a TOTP code and a recovery code are sent, then it is 400 and no code is spent', async () => {
    const o = await ownerWithTwoFactor();
    const res = await api('POST', '/auth/login', {
      body: { email: o.email, password: o.password, totp_code: totpCode(o.secret, 1), recovery_code: o.codes[0] },
    });
    expectError(res, 400, 'invalid_request');
    expect((await api('GET', '/auth/2fa', { session: o })).body.data.recovery_codes_left).toBe(10);
  });
});

describe('step-up', () => {
  it('when a wrong password or code is given, then it is 403 step_up_failed; past 5 failures in 15 minutes it is 429 with Retry-After even with the right password', async () => {
    const o = await ownerWithTwoFactor();
    expectError(await api('POST', '/auth/step-up', { session: o, body: { password: 'not the password' } }), 403, 'step_up_failed');
    expectError(await api('POST', '/auth/step-up', { session: o, body: { totp_code: wrongTotpCode(o.secret) } }), 403, 'step_up_failed');
    expectError(await api('POST', '/auth/step-up', { session: o, body: { recovery_code: 'aaaa-aaaa-aaaa' } }), 403, 'step_up_failed');
    for (let i = 0; i < 2; i++) expectError(await api('POST', '/auth/step-up', { session: o, body: { password: 'nope nope nope' } }), 403, 'step_up_failed');
    const throttled = await api('POST', '/auth/step-up', { session: o, body: { password: o.password } });
    expectError(throttled, 429, 'rate_limited');
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    // The login throttle is its own: the person can still log in.
    expect((await api('POST', '/auth/login', { body: { email: o.email, password: o.password, totp_code: totpCode(o.secret, 1) } })).status).toBe(200);
  });

  it.each([
    ['no factor', {}],
    ['two factors', { password: 'correct horse battery', recovery_code: 'aaaa-aaaa-aaaa' }],
  ])('when step-up has %s, then it is 400', async (_what, body) => {
    const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    expectError(await api('POST', '/auth/step-up', { session: s, body }), 400, 'invalid_request');
  });

  it('when step-up is sent without X-CSRF-Token, then it is 403 csrf_failed and the session is not stepped up', async () => {
    const s = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    expectError(await api('POST', '/auth/step-up', { session: s, csrf: null, body: { password: s.password } }), 403, 'csrf_failed');
    expect(
      await db()('sessions')
        .where({ token_hash: hashSecret(s.cookie) })
        .first(),
    ).toMatchObject({ stepped_up_at: null });
  });
});

describe('recovery codes and turning two-factor off', () => {
  it('when new recovery codes are asked for, then they need a fresh step-up, the old ones stop working and the change is audited', async () => {
    const o = await ownerWithTwoFactor();
    await db()('sessions')
      .update({ stepped_up_at: new Date(Date.now() - 6 * 60_000) })
      .where({ token_hash: hashSecret(o.cookie) });
    expectError(await api('POST', '/auth/2fa/recovery-codes', { session: o, body: {} }), 403, 'step_up_required');
    const fresh = await api('POST', '/auth/2fa/recovery-codes', { session: o, body: { password: o.password } });
    expect(fresh.status).toBe(200);
    const codes = fresh.body.data.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(codes).not.toContain(o.codes[1]);
    expectError(await api('POST', '/auth/login', { body: { email: o.email, password: o.password, recovery_code: o.codes[1] } }), 401, 'totp_invalid');
    expect((await api('POST', '/auth/login', { body: { email: o.email, password: o.password, recovery_code: codes[1] } })).status).toBe(200);
    const [entry] = await auditActions(o, 'recovery_codes.regenerate');
    expect(entry).toMatchObject({ actor: { user_id: o.userId }, target: { type: 'user', id: o.userId } });
    expect(JSON.stringify(entry)).not.toContain(codes[0]);
  });

  it('when two-factor is turned off with a wrong password, then it stays on; with the right one it is off, the codes are gone and the password alone logs in', async () => {
    const o = await ownerWithTwoFactor();
    expectError(await api('POST', '/auth/2fa/disable', { session: o, body: { password: 'not the password' } }), 403, 'step_up_failed');
    expectError(await api('POST', '/auth/2fa/disable', { session: o, csrf: null, body: { password: o.password } }), 403, 'csrf_failed');
    expect((await api('GET', '/auth/2fa', { session: o })).body.data.enabled).toBe(true);
    const off = await api('POST', '/auth/2fa/disable', { session: o, body: { totp_code: totpCode(o.secret, 1) } });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({ enabled: false, enabled_at: null, recovery_codes_left: 0 });
    expect(await db()('recovery_codes').where({ user_id: o.userId }).first()).toBeUndefined();
    expect(await db()('users').where({ id: o.userId }).first()).toMatchObject({ totp_secret: null, totp_enabled_at: null });
    expect((await api('POST', '/auth/login', { body: { email: o.email, password: o.password } })).status).toBe(200);
    expect((await auditActions(o, 'two_factor.disable')).length).toBe(1);
    expectError(await api('POST', '/auth/2fa/disable', { session: o, body: { password: o.password } }), 409, 'two_factor_disabled');
  });

  it('when secrets pass through two-factor, then neither the TOTP secret nor a recovery code reaches the logs or the audit log', async () => {
    const o = await ownerWithTwoFactor();
    await api('POST', '/auth/login', { body: { email: o.email, password: o.password, recovery_code: o.codes[2] } });
    const audit = JSON.stringify((await api('GET', '/audit-log', { session: o })).body);
    const logs = fx.stack.logs.lines.join('\n');
    for (const secret of [o.secret, ...o.codes, o.cookie, o.csrf]) {
      expect(logs).not.toContain(secret);
      expect(audit).not.toContain(secret);
    }
  });
});
