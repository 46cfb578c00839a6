import { inflateRawSync } from 'node:zlib';
import { dashboard, type DashboardSession } from './dashboard';
import { samlAnswer } from './saml-sign-in';
import type { ResponseFields, TestIdp } from './saml-idp';
import { TestBrowser, type BrowserResponse } from './sso-browser';

/**
 * A step-up at a SAML workspace's IdP as the dashboard's dialog does it (docs/sso.md): POST
 * /api/auth/sso/step-up, the browser sent to `redirect_url` (holding the attempt's cookie), the IdP
 * answering for `email` (with `over`, e.g. an old AuthnInstant), posted to the ACS. Answers the ACS's answer.
 */
export async function samlStepUp(
  appUrl: string,
  idp: TestIdp,
  organizationId: string,
  session: Pick<DashboardSession, 'cookie' | 'csrf'>,
  email: string,
  over: Partial<ResponseFields> = {},
): Promise<BrowserResponse> {
  const started = await dashboard(appUrl, 'POST', '/auth/sso/step-up', { session });
  if (started.status !== 200) throw new Error(`step-up answered ${started.status}: ${JSON.stringify(started.body)}`);
  const browser = new TestBrowser('');
  for (const line of started.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    browser.setCookie(new URL(appUrl).origin, pair.slice(0, eq), pair.slice(eq + 1));
  }
  const url = new URL(started.body.data.redirect_url);
  const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  const requestId = /\bID="([^"]+)"/.exec(request)![1];
  const form = { SAMLResponse: samlAnswer(appUrl, idp, organizationId, requestId, email, true, over), RelayState: url.searchParams.get('RelayState')! };
  return browser.request('POST', `${appUrl}/auth/sso/saml/acs`, form);
}
