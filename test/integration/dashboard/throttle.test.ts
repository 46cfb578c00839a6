import http from 'node:http';
import { knexOf } from '../../../src/db/knex';
import { DEFAULT_SIGNUPS_PER_IP_PER_HOUR } from '../../../src/services/throttles';
import { newAccount, signUpAndLogIn } from '../../support/dashboard';
import { sendRaw } from '../../support/raw-http';
import { startTestStack, type TestStack } from '../../support/stack';

let stack: TestStack;
beforeAll(async () => {
  // The real sign-up limit (the test stack raises it for the other files).
  stack = await startTestStack({ env: { SIGNUP_RATE_LIMIT_PER_IP: String(DEFAULT_SIGNUPS_PER_IP_PER_HOUR) } });
});
afterAll(() => stack.stop());

/** A login from a chosen loopback address, so each test is its own client IP. */
function loginFrom(localAddress: string, body: { email: string; password: string }): Promise<{ status: number; retryAfter?: string; body: any }> {
  const url = new URL(`${stack.urls.app}/api/auth/login`);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('login throttling', () => {
  it('when an account has had 5 failed logins, then the next login is 429 with Retry-After even with the right password, and other accounts are unaffected', async () => {
    const a = await signUpAndLogIn(stack.urls.app, stack.orm);
    const b = await signUpAndLogIn(stack.urls.app, stack.orm);
    for (let i = 0; i < 5; i++) expect((await loginFrom('127.0.0.11', { email: a.email, password: 'wrong password!' })).status).toBe(401);
    // From another address too: the count is the account's.
    const refused = await loginFrom('127.0.0.12', { email: a.email, password: a.password });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, code: 'rate_limited' });
    const retryAfter = Number(refused.retryAfter);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect((await loginFrom('127.0.0.12', { email: b.email, password: b.password })).status).toBe(200);
  });

  it('when an account logs in successfully after 4 failures, then its count starts again', async () => {
    const a = await signUpAndLogIn(stack.urls.app, stack.orm);
    for (let i = 0; i < 4; i++) expect((await loginFrom('127.0.0.13', { email: a.email, password: 'wrong password!' })).status).toBe(401);
    expect((await loginFrom('127.0.0.13', { email: a.email, password: a.password })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await loginFrom('127.0.0.13', { email: a.email, password: 'wrong password!' })).status).toBe(401);
    expect((await loginFrom('127.0.0.13', { email: a.email, password: a.password })).status).toBe(200);
  });

  it('when one IP has had 20 failed logins over many accounts, then every login from it is 429 and other IPs still log in', async () => {
    const a = await signUpAndLogIn(stack.urls.app, stack.orm);
    for (let i = 0; i < 20; i++) expect((await loginFrom('127.0.0.14', { email: `nobody-${i}@example.test`, password: 'wrong password!' })).status).toBe(401);
    const refused = await loginFrom('127.0.0.14', { email: a.email, password: a.password });
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((await loginFrom('127.0.0.15', { email: a.email, password: a.password })).status).toBe(200);
  });
});

describe('sign-up throttling', () => {
  const signupFrom = (localAddress: string, body: unknown) =>
    sendRaw('POST', `${stack.urls.app}/api/auth/signup`, { body: JSON.stringify(body), localAddress });
  const rows = async () => {
    const db = knexOf(stack.orm);
    const count = async (table: string) => Number(((await db(table).count({ n: '*' }).first()) as { n: string }).n);
    return { users: await count('users'), organizations: await count('organizations'), memberships: await count('memberships') };
  };

  it(`when one IP has signed up ${DEFAULT_SIGNUPS_PER_IP_PER_HOUR} times in an hour, then the next sign-up is 429 with Retry-After and creates nothing; refused bad input did not count`, async () => {
    const from = '127.0.0.21';
    for (const bad of [
      { ...newAccount(), password: 'short' },
      { ...newAccount(), email: 'not an email' },
    ])
      expect((await signupFrom(from, bad)).status).toBe(400);
    for (let i = 0; i < DEFAULT_SIGNUPS_PER_IP_PER_HOUR; i++) expect((await signupFrom(from, newAccount())).status).toBe(201);
    const before = await rows();
    const extra = newAccount();
    const refused = await signupFrom(from, extra);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(await rows()).toEqual(before);
    expect(await knexOf(stack.orm)('users').where({ email: extra.email }).first()).toBeUndefined();
    // Another address is its own count.
    expect((await signupFrom('127.0.0.22', newAccount())).status).toBe(201);
  });
});
