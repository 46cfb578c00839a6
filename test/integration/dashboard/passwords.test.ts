import { hashSecret } from '../../../src/domain/api-token';
import { knexOf } from '../../../src/db/knex';
import { sendRaw } from '../../support/raw-http';
import { dashboardFixture, lastEmailTo, sessionCookieFrom, signUpAndLogIn } from '../../support/dashboard';

const fx = dashboardFixture();
const { api } = fx;
const NEW_PASSWORD = 'a brand new passphrase';

const logIn = async (email: string, password: string) => {
  const res = await api('POST', '/auth/login', { body: { email, password } });
  return { status: res.status, session: res.status === 200 ? { cookie: sessionCookieFrom(res)!, csrf: res.body.data.csrf_token as string } : undefined };
};

describe('password change', () => {
  it('when the current password is given, then the password changes, the caller gets a new session and every other session ends', async () => {
    const a = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const other = (await logIn(a.email, a.password)).session!;
    const res = await api('POST', '/auth/password', { session: a, body: { current_password: a.password, new_password: NEW_PASSWORD } });
    expect(res.status).toBe(200);
    const rotated = { cookie: sessionCookieFrom(res)!, csrf: res.body.data.csrf_token as string };
    expect(rotated.cookie).not.toBe(a.cookie);
    expect(rotated.csrf).not.toBe(a.csrf);
    expect((await api('GET', '/auth/session', { session: a })).status).toBe(401);
    expect((await api('GET', '/auth/session', { session: other })).status).toBe(401);
    expect((await api('GET', '/auth/session', { session: rotated })).status).toBe(200);
    expect((await logIn(a.email, a.password)).status).toBe(401);
    expect((await logIn(a.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('when the current password is wrong, too short a new one is given or CSRF is missing, then nothing changes', async () => {
    const a = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const wrong = await api('POST', '/auth/password', { session: a, body: { current_password: 'not the password', new_password: NEW_PASSWORD } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ success: false, code: 'invalid_request', error: expect.stringContaining('current_password') });
    const short = await api('POST', '/auth/password', { session: a, body: { current_password: a.password, new_password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.error).toContain('new_password: must be at least 10 characters');
    const noCsrf = await api('POST', '/auth/password', { session: a, csrf: null, body: { current_password: a.password, new_password: NEW_PASSWORD } });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_failed');
    expect((await api('GET', '/auth/session', { session: a })).status).toBe(200);
    expect((await logIn(a.email, a.password)).status).toBe(200);
  });
});

describe('password reset by emailed link', () => {
  const resetTokenFor = async (email: string) => {
    const mail = await lastEmailTo(fx.stack.orm, email);
    const match = mail?.body.match(/\/reset-password\?token=([A-Za-z0-9_-]+)/);
    if (!match) throw new Error(`no reset link emailed to ${email}`);
    return match[1];
  };

  it('when a reset is asked for and the link used, then the new password works, old sessions end and the link works once', async () => {
    const a = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const asked = await api('POST', '/auth/password-reset', { body: { email: a.email } });
    expect(asked.status).toBe(202);
    const token = await resetTokenFor(a.email);
    expect(
      await knexOf(fx.stack.orm)('account_tokens')
        .where({ token_hash: hashSecret(token), purpose: 'reset_password' })
        .first(),
    ).toBeDefined();
    const done = await api('POST', '/auth/password-reset/confirm', { body: { token, new_password: NEW_PASSWORD } });
    expect(done.status).toBe(200);
    expect((await api('GET', '/auth/session', { session: a })).status).toBe(401);
    expect((await logIn(a.email, a.password)).status).toBe(401);
    expect((await logIn(a.email, NEW_PASSWORD)).status).toBe(200);
    const again = await api('POST', '/auth/password-reset/confirm', { body: { token, new_password: 'yet another passphrase' } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_token');
  });

  it('when two reset links were emailed and one is used, then the other no longer works', async () => {
    const a = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    await api('POST', '/auth/password-reset', { body: { email: a.email } });
    const first = await resetTokenFor(a.email);
    await api('POST', '/auth/password-reset', { body: { email: a.email } });
    const second = await resetTokenFor(a.email);
    expect(second).not.toBe(first);
    expect((await api('POST', '/auth/password-reset/confirm', { body: { token: second, new_password: NEW_PASSWORD } })).status).toBe(200);
    const stale = await api('POST', '/auth/password-reset/confirm', { body: { token: first, new_password: 'an attacker passphrase' } });
    expect({ status: stale.status, code: stale.body.code }).toEqual({ status: 400, code: 'invalid_token' });
    expect((await logIn(a.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('when the password is changed while a reset link is outstanding, then that link no longer works', async () => {
    const a = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    await api('POST', '/auth/password-reset', { body: { email: a.email } });
    const token = await resetTokenFor(a.email);
    expect((await api('POST', '/auth/password', { session: a, body: { current_password: a.password, new_password: NEW_PASSWORD } })).status).toBe(200);
    const stale = await api('POST', '/auth/password-reset/confirm', { body: { token, new_password: 'an attacker passphrase' } });
    expect({ status: stale.status, code: stale.body.code }).toEqual({ status: 400, code: 'invalid_token' });
    expect((await logIn(a.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('when a reset is asked for an unknown address, then the answer is the same and no email is sent', async () => {
    const email = `nobody-${Date.now()}@example.test`;
    const res = await api('POST', '/auth/password-reset', { body: { email } });
    expect(res.status).toBe(202);
    const known = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const knownRes = await api('POST', '/auth/password-reset', { body: { email: known.email } });
    expect(res.body.message).toBe(knownRes.body.message);
    expect(await lastEmailTo(fx.stack.orm, email)).toBeUndefined();
  });

  it('when resets are asked for one address again and again, then every answer is the same but only 3 emails an hour go out; one IP past 20 requests hears 429', async () => {
    const a = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const ask = (email: string, localAddress: string) =>
      sendRaw('POST', `${fx.stack.urls.app}/api/auth/password-reset`, { body: JSON.stringify({ email }), localAddress });
    for (let i = 0; i < 5; i++) expect((await ask(a.email, '127.0.0.31')).status).toBe(202);
    const sent = await knexOf(fx.stack.orm)('dev_deliveries').where({ to: a.email }).where('subject', 'like', '%Reset%');
    expect(sent).toHaveLength(3);
    let last = await ask(`flood-0@example.test`, '127.0.0.32');
    for (let i = 1; i < 21 && last.status === 202; i++) last = await ask(`flood-${i}@example.test`, '127.0.0.32');
    expect(last.status).toBe(429);
    expect(last.body.code).toBe('rate_limited');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask(a.email, '127.0.0.33')).status).toBe(202);
  });

  it('when a verification token is used as a reset token, or the reset token has expired, then it is refused', async () => {
    const a = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm, { verify: false });
    const verifyMail = await lastEmailTo(fx.stack.orm, a.email);
    const verifyToken = verifyMail!.body.match(/\/verify\?token=([A-Za-z0-9_-]+)/)![1];
    expect((await api('POST', '/auth/password-reset/confirm', { body: { token: verifyToken, new_password: NEW_PASSWORD } })).status).toBe(400);
    await api('POST', '/auth/password-reset', { body: { email: a.email } });
    const token = await resetTokenFor(a.email);
    await knexOf(fx.stack.orm)('account_tokens')
      .where({ token_hash: hashSecret(token) })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await api('POST', '/auth/password-reset/confirm', { body: { token, new_password: NEW_PASSWORD } })).status).toBe(400);
    expect((await logIn(a.email, a.password)).status).toBe(200);
  });
});
