import { startTestDnsServer, type TestDnsServer } from '../fakes/dns-server';
import { dashboardInBrowser, saveScreenshot } from '../support/browser';
import { makeTestIdp, type TestIdp } from '../support/saml-idp';
import { samlSsoWorkspace } from '../support/saml-sign-in';

// "Log in with SSO" in Chromium (docs/sso.md, "Signing in"): the login page opens Klaxon's start
// page, whose form (no script, the page's Content-Security-Policy) posts back with this origin and
// the page's nonce, and only that reaches the identity provider. Another site's form does not.
// The IdP's address (https://idp.example.test) is answered by the test through Playwright's routing.

let dns: TestDnsServer;
const suite = dashboardInBrowser({
  stack: async () => {
    dns = await startTestDnsServer();
    return { env: { DNS_RESOLVERS: dns.address } };
  },
});
afterAll(() => dns?.stop());
let idp: TestIdp;
beforeAll(() => {
  idp = makeTestIdp();
});

const app = () => suite.app;

/** Answers every request to the IdP's host, and records where the browser went there. */
async function fakeIdp(): Promise<string[]> {
  const reached: string[] = [];
  await suite.page.route(`${new URL(idp.ssoUrl).origin}/**`, async (route) => {
    reached.push(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>The IdP</title><h1>Sign in at the IdP</h1>' });
  });
  return reached;
}

describe('Starting single sign-on in Chromium', () => {
  it('when a person logs in with SSO from the login page, then Klaxon’s start page and its Continue button take them to their IdP', async () => {
    const ws = await samlSsoWorkspace(suite.stack, idp, dns);
    const reached = await fakeIdp();
    await suite.page.goto(`${app()}/login?sso`);
    await suite.page.getByRole('textbox', { name: 'Work email' }).fill(`ada@${ws.domain}`);
    await suite.page.getByRole('button', { name: 'Continue with SSO' }).click();
    await suite.page.getByRole('heading', { name: 'Sign in to Klaxon' }).waitFor();
    expect(new URL(suite.page.url()).pathname).toBe('/auth/sso/start');
    await saveScreenshot(suite.page, 'sso-start');
    await suite.page.getByRole('button', { name: 'Continue with SSO' }).click();
    await suite.page.getByRole('heading', { name: 'Sign in at the IdP' }).waitFor();
    const at = new URL(suite.page.url());
    expect(`${at.origin}${at.pathname}`).toBe(idp.ssoUrl);
    expect(at.searchParams.get('SAMLRequest')).toBeTruthy();
    expect(reached).toHaveLength(1);
  });

  it('when another site’s page posts to /auth/sso/start, then the browser gets a refusal and never reaches the IdP', async () => {
    const ws = await samlSsoWorkspace(suite.stack, idp, dns);
    const reached = await fakeIdp();
    // Even after the person opened a start page of their own (its nonce cookie is SameSite=Strict).
    await suite.page.goto(`${app()}/auth/sso/start?organization_id=${ws.organizationId}`);
    const evil = 'https://evil.example';
    await suite.page.route(`${evil}/**`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: `<!doctype html><form method="post" action="${app()}/auth/sso/start"><input type="hidden" name="organization_id" value="${ws.organizationId}"><input type="hidden" name="nonce" value="guessed"><button>Go</button></form>`,
      }),
    );
    await suite.page.goto(`${evil}/`);
    await Promise.all([suite.page.waitForURL(`${app()}/auth/sso/start`), suite.page.getByRole('button', { name: 'Go' }).click()]);
    const body = JSON.parse((await suite.page.locator('pre').first().textContent())!);
    expect(body).toMatchObject({ success: false, code: 'csrf_failed' });
    expect(reached).toEqual([]);
  });
});
