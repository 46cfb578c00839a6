import { performance } from 'node:perf_hooks';
import { startTestDnsServer, type TestDnsServer } from '../../fakes/dns-server';
import { makeTestIdp, type TestIdp } from '../../support/saml-idp';
import { samlAnswer, samlSsoWorkspace, startSamlAt } from '../../support/saml-sign-in';
import { TestBrowser } from '../../support/sso-browser';
import { startTestStack, type TestStack } from '../../support/stack';

/**
 * Not a test (no `.test.ts`): the SAML login time against the test IdP (docs/sso-saml.md).
 * Run: `npx jest --testMatch '**\/saml-login-time.measure.ts'`. Each login is a new browser:
 * the start page and its POST /auth/sso/start → (the test IdP signs its answer, in this process) → POST /auth/sso/saml/acs →
 * the session cookie. Prints p50 and p90.
 */
const LOGINS = Number(process.env.SSO_MEASURE_LOGINS ?? 30);
let stack: TestStack;
let idp: TestIdp;
let dns: TestDnsServer;

beforeAll(async () => {
  dns = await startTestDnsServer();
  stack = await startTestStack({ worker: false, env: { DNS_RESOLVERS: dns.address } });
  idp = makeTestIdp();
});
afterAll(async () => {
  await stack?.stop();
  await dns?.stop();
});

it('measures SAML logins', async () => {
  const ws = await samlSsoWorkspace(stack, idp, dns);
  const times: number[] = [];
  for (let i = 0; i <= LOGINS; i++) {
    const browser = new TestBrowser('');
    const email = `p${i}@${ws.domain}`;
    const t0 = performance.now();
    const { requestId, relayState } = await startSamlAt(stack.urls.app, idp, browser, email);
    const form = { SAMLResponse: samlAnswer(stack.urls.app, idp, ws.organizationId, requestId, email), RelayState: relayState };
    const acs = await browser.request('POST', `${stack.urls.app}/auth/sso/saml/acs`, form);
    if (acs.status !== 303) throw new Error(`the ACS answered ${acs.status}: ${acs.body}`);
    if (i > 0) times.push(performance.now() - t0); // the first one warms up
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  process.stdout.write(`SAML login, ${times.length} logins: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms\n`);
}, 120_000);
