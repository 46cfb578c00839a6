import { randomUUID } from 'node:crypto';
import { setPlan } from '../../../src/services/workspace';
import { startTestDnsServer, type TestDnsServer } from '../../fakes/dns-server';
import { makeIdpCert, startTestIdp, type TestIdp } from '../../fakes/oidc-idp';
import type { TestCert } from '../../../src/integrations/testing/tls-cert';
import { dashboard, signUpAndLogIn } from '../../support/dashboard';
import { TestBrowser } from '../../support/sso-browser';
import { proveSsoDomain } from '../../support/sso-domains';
import { startTestStack, type TestStack } from '../../support/stack';

/**
 * Not a test (no `.test.ts`): the OIDC login time against the local IdP (docs/sso.md, "Login
 * time"). Run: `npx jest --testMatch '**\/oidc-login-time.measure.ts'`. Each login is a new browser:
 * the start page and its POST → the IdP's login form → the callback → the session works. Prints p50 and p90 of the
 * whole login and of the browser's requests to Klaxon (start page + its POST, and callback; the callback waits
 * for the IdP's token, keys and userinfo answers).
 */
const LOGINS = Number(process.env.SSO_MEASURE_LOGINS ?? 30);
let stack: TestStack;
let idp: TestIdp;
let cert: TestCert;
let dns: TestDnsServer;

beforeAll(async () => {
  cert = makeIdpCert();
  dns = await startTestDnsServer();
  stack = await startTestStack({ worker: false, env: { ALLOW_PRIVATE_TARGETS: 'true', SSO_CA_FILE: cert.certFile, DNS_RESOLVERS: dns.address } });
  idp = await startTestIdp(`${stack.urls.app}/auth/sso/oidc/callback`, cert);
});
afterAll(async () => {
  await idp?.stop();
  await stack?.stop();
  await dns?.stop();
});

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

it(`measures ${LOGINS} OIDC logins`, async () => {
  const owner = await signUpAndLogIn(stack.urls.app, stack.orm);
  await setPlan(stack.orm, owner.organizationId, 'BUSINESS');
  const domain = `measure-${randomUUID().slice(0, 8)}.test`;
  const body = { type: 'oidc', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret, domains: [domain], password: owner.password };
  expect((await dashboard(stack.urls.app, 'PUT', '/sso', { session: owner, body })).status).toBe(200);
  await proveSsoDomain(stack.urls.app, owner, dns, domain);
  const whole: number[] = [];
  const klaxon: number[] = [];
  const starts: number[] = [];
  const callbacks: number[] = [];
  for (let i = 0; i < LOGINS + 1; i++) {
    const email = `p${i}-${randomUUID().slice(0, 6)}@${domain}`;
    const browser = new TestBrowser(cert.cert);
    const t0 = performance.now();
    const start = await browser.startSso(`${stack.urls.app}/auth/sso/start?email=${encodeURIComponent(email)}`);
    const t1 = performance.now();
    const back = await browser.signInAtIdp(start.location!, stack.urls.app, email);
    const t2 = performance.now();
    const done = await browser.request('GET', back);
    const t3 = performance.now();
    expect(done.status).toBe(302);
    // The first login pays for discovery (then cached): kept out, as a warm-up.
    if (i === 0) continue;
    whole.push(t3 - t0);
    klaxon.push(t1 - t0 + (t3 - t2));
    starts.push(t1 - t0);
    callbacks.push(t3 - t2);
  }
  const fmt = (xs: number[]) => `p50 ${quantile(xs, 0.5).toFixed(1)} ms, p90 ${quantile(xs, 0.9).toFixed(1)} ms`;
  process.stdout.write(
    `OIDC login over ${LOGINS} logins (new browser each, JIT member each):\n  whole login: ${fmt(whole)}\n  the browser's requests to Klaxon (start page, its POST, callback): ${fmt(klaxon)}\n  start (page and POST) alone: ${fmt(starts)}\n  callback alone (with its token, keys and userinfo requests to the IdP): ${fmt(callbacks)}\n`,
  );
});
