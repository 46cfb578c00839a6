import { randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { samlAcsUrlOf, samlEntityIdOf } from '../../src/services/sso/saml';
import { setPlan } from '../../src/services/workspace';
import type { TestDnsServer } from '../fakes/dns-server';
import { dashboard, SESSION_COOKIE, signUpAndLogIn } from './dashboard';
import { assertionXml, base64, responseFields, responseXml, signAssertion, type ResponseFields, type TestIdp } from './saml-idp';
import { TestBrowser } from './sso-browser';
import { proveSsoDomain } from './sso-domains';
import type { TestStack } from './stack';

/**
 * A BUSINESS workspace whose Billing Owner set up SAML with `idp` for a fresh domain, through PUT
 * /api/sso, and proved the domain on `dns` (the stack's DNS_RESOLVERS).
 */
export async function samlSsoWorkspace(stack: TestStack, idp: TestIdp, dns: TestDnsServer) {
  const owner = await signUpAndLogIn(stack.urls.app, stack.orm);
  await setPlan(stack.orm, owner.organizationId, 'BUSINESS');
  const domain = `saml-${randomUUID().slice(0, 8)}.test`;
  const put = await dashboard(stack.urls.app, 'PUT', '/sso', {
    session: owner,
    body: {
      type: 'saml',
      idp_entity_id: idp.entityId,
      idp_sso_url: idp.ssoUrl,
      idp_certificate: idp.cert,
      domains: [domain],
      default_role: 'MEMBER',
      require_sso: false,
      password: owner.password,
    },
  });
  if (put.status !== 200) throw new Error(`PUT /api/sso answered ${put.status}: ${JSON.stringify(put.body)}`);
  await proveSsoDomain(stack.urls.app, owner, dns, domain);
  return { owner, domain, organizationId: owner.organizationId };
}

/** Starts at Klaxon as a browser does (its start page, then the form): the IdP's URL, with the AuthnRequest's id and the RelayState. */
export async function startSamlAt(appUrl: string, idp: TestIdp, browser: TestBrowser, email: string) {
  const res = await browser.startSso(`${appUrl}/auth/sso/start?email=${encodeURIComponent(email)}`);
  if (res.status !== 302) throw new Error(`POST /auth/sso/start answered ${res.status}: ${res.body}`);
  const url = new URL(res.location!);
  if (`${url.origin}${url.pathname}` !== idp.ssoUrl) throw new Error(`/auth/sso/start went to ${url.href}, not the IdP`);
  const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  return { requestId: /\bID="([^"]+)"/.exec(request)![1], relayState: url.searchParams.get('RelayState')!, request };
}

/** What the IdP posts back for `email` (SAMLResponse, base64): its assertion signed unless told not to; `over` changes fields. */
export function samlAnswer(
  appUrl: string,
  idp: TestIdp,
  organizationId: string,
  requestId: string,
  email: string,
  signed = true,
  over: Partial<ResponseFields> = {},
): string {
  const f = responseFields({ entityId: samlEntityIdOf(appUrl, organizationId), acsUrl: samlAcsUrlOf(appUrl) }, idp, requestId, { nameId: email, ...over });
  return base64(responseXml(f, signed ? signAssertion(assertionXml(f), idp) : assertionXml(f)));
}

/**
 * A whole SAML sign-in at a workspace, by its id: Klaxon's start page and its form, then `idp`'s
 * signed answer for `email` (`over` changes fields: another NameID, attributes…) posted to the ACS.
 * Answers the status, the refusal code, and the session cookie the browser got, if any.
 */
export async function signInThroughSaml(appUrl: string, idp: TestIdp, organizationId: string, email: string, over: Partial<ResponseFields> = {}) {
  const browser = new TestBrowser('');
  const start = await browser.startSso(`${appUrl}/auth/sso/start?organization_id=${organizationId}`);
  if (start.status !== 302) throw new Error(`POST /auth/sso/start answered ${start.status}: ${start.body}`);
  const url = new URL(start.location!);
  const requestId = /\bID="([^"]+)"/.exec(inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8'))![1];
  const form = { SAMLResponse: samlAnswer(appUrl, idp, organizationId, requestId, email, true, over), RelayState: url.searchParams.get('RelayState')! };
  const acs = await browser.request('POST', `${appUrl}/auth/sso/saml/acs`, form);
  return {
    status: acs.status,
    code: acs.status >= 400 ? (JSON.parse(acs.body).code as string) : undefined,
    session: browser.cookie(new URL(appUrl).origin, SESSION_COOKIE),
  };
}
