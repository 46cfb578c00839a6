import { knexOf } from '../../../src/db/knex';
import { LOGIN_LIMITS, PASSWORD_RESET_LIMITS } from '../../../src/services/throttles';
import { newAccount } from '../../support/dashboard';
import { sendRaw, type RawResponse } from '../../support/raw-http';
import { startTestStack, type TestStack } from '../../support/stack';

// The app listener's client address, as per-IP throttles and sessions see it: behind a trusted
// proxy, the client it names; otherwise the peer, whatever X-Forwarded-For claims.
const SIGNUPS_PER_IP = 5;
let proxied: TestStack;
let direct: TestStack;
beforeAll(async () => {
  // A low sign-up limit on the proxied stack: its tests sign up 2 accounts from the proxy itself.
  [proxied, direct] = await Promise.all([
    startTestStack({ worker: false, env: { TRUSTED_PROXIES: '127.0.0.1', SIGNUP_RATE_LIMIT_PER_IP: String(SIGNUPS_PER_IP) } }),
    startTestStack({ worker: false }),
  ]);
});
afterAll(() => Promise.all([proxied?.stop(), direct?.stop()]));

function login(stack: TestStack, body: { email: string; password: string }, opts: { from?: string; forwardedFor?: string } = {}): Promise<RawResponse> {
  return sendRaw('POST', `${stack.urls.app}/api/auth/login`, {
    body: JSON.stringify(body),
    localAddress: opts.from,
    headers: opts.forwardedFor ? { 'X-Forwarded-For': opts.forwardedFor } : {},
  });
}

async function signUp(stack: TestStack): Promise<{ email: string; password: string }> {
  const account = newAccount();
  const res = await sendRaw('POST', `${stack.urls.app}/api/auth/signup`, { body: JSON.stringify(account) });
  expect(res.status).toBe(201);
  return { email: account.email, password: account.password };
}

/** The IP recorded on the newest session of the user a login answered. */
async function sessionIpOf(stack: TestStack, res: RawResponse): Promise<string | null> {
  const row = (await knexOf(stack.orm)('sessions').select('ip').where({ user_id: res.body.data.user.id }).orderBy('created_at', 'desc').first()) as
    { ip: string | null } | undefined;
  return row?.ip ?? null;
}

const wrong = (i: number) => ({ email: `nobody-${i}@example.test`, password: 'wrong password!' });

describe('the client address on the app listener', () => {
  it('when a trusted proxy forwards wrong logins for one client, then that client is locked out and another client behind the same proxy still logs in, its session recording its own address', async () => {
    const account = await signUp(proxied);
    for (let i = 0; i < LOGIN_LIMITS.perIp; i++) expect((await login(proxied, wrong(i), { forwardedFor: '198.51.100.7' })).status).toBe(401);
    const locked = await login(proxied, account, { forwardedFor: '198.51.100.7' });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // A hop the client wrote itself (left of the proxy's) is not believed: this is 198.51.100.8.
    const other = await login(proxied, account, { forwardedFor: '198.51.100.7, 198.51.100.8' });
    expect(other.status).toBe(200);
    expect(await sessionIpOf(proxied, other)).toBe('198.51.100.8');
  });

  it('when no proxy is trusted, then X-Forwarded-For changes nothing: wrong logins with a new forged address each still count against the peer', async () => {
    const account = await signUp(direct);
    for (let i = 0; i < LOGIN_LIMITS.perIp; i++)
      expect((await login(direct, wrong(i), { from: '127.0.0.41', forwardedFor: `203.0.113.${i + 1}` })).status).toBe(401);
    const locked = await login(direct, account, { from: '127.0.0.41', forwardedFor: '203.0.113.99' });
    expect(locked.status).toBe(429);
    const elsewhere = await login(direct, account, { from: '127.0.0.42', forwardedFor: '198.51.100.7' });
    expect(elsewhere.status).toBe(200);
    expect(await sessionIpOf(direct, elsewhere)).toBe('127.0.0.42');
  });
});

describe('per-IP throttles and IPv6 clients', () => {
  // Every address of one /64 is one client (an ISP hands a host or a LAN the whole /64).
  const in64 = (prefix: string, i: number) => `${prefix}::${(i + 1).toString(16)}`;

  it('when wrong logins come from many addresses of one IPv6 /64, then they share one budget: the /64 is locked out, another /64 still logs in', async () => {
    const account = await signUp(proxied);
    for (let i = 0; i < LOGIN_LIMITS.perIp; i++) expect((await login(proxied, wrong(i), { forwardedFor: in64('2001:db8:1:2', i) })).status).toBe(401);
    const locked = await login(proxied, account, { forwardedFor: '2001:db8:1:2:ffff:ffff:ffff:fffe' });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ success: false, code: 'rate_limited' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const otherPrefix = await login(proxied, account, { forwardedFor: '2001:db8:1:3::1' });
    expect(otherPrefix.status).toBe(200);
    // The session still records the client's own address, not its /64.
    expect(await sessionIpOf(proxied, otherPrefix)).toBe('2001:db8:1:3::1');
  });

  it('when password reset requests come from many addresses of one /64, then the per-IP limit counts them together', async () => {
    const reset = (forwardedFor: string) =>
      sendRaw('POST', `${proxied.urls.app}/api/auth/password-reset`, {
        body: JSON.stringify({ email: `nobody-${forwardedFor.replace(/:/g, '-')}@example.test` }),
        headers: { 'X-Forwarded-For': forwardedFor },
      });
    for (let i = 0; i < PASSWORD_RESET_LIMITS.perIp; i++) expect((await reset(in64('2001:db8:7:8', i))).status).toBe(202);
    expect((await reset('2001:db8:7:8::ab')).status).toBe(429);
    expect((await reset('2001:db8:7:9::1')).status).toBe(202);
  });

  it('when sign-ups come from many addresses of one /64, then the per-IP sign-up limit counts them together and creates nothing past it', async () => {
    const signUpFrom = (forwardedFor: string, account = newAccount()) =>
      sendRaw('POST', `${proxied.urls.app}/api/auth/signup`, { body: JSON.stringify(account), headers: { 'X-Forwarded-For': forwardedFor } });
    for (let i = 0; i < SIGNUPS_PER_IP; i++) expect((await signUpFrom(in64('2001:db8:5:6', i))).status).toBe(201);
    const extra = newAccount();
    expect((await signUpFrom('2001:db8:5:6::ff', extra)).status).toBe(429);
    expect(await knexOf(proxied.orm)('users').where({ email: extra.email }).first()).toBeUndefined();
    expect((await signUpFrom('2001:db8:5:7::1')).status).toBe(201);
  });
});
