import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { startTestDnsServer, type TestDnsServer } from '../../fakes/dns-server';
import { samlAcsUrlOf, samlEntityIdOf } from '../../../src/services/sso/saml';
import { dashboard, SESSION_COOKIE } from '../../support/dashboard';
import { makeTestIdp, type TestIdp } from '../../support/saml-idp';
import { samlAnswer, samlSsoWorkspace, signInThroughSaml, startSamlAt } from '../../support/saml-sign-in';
import { samlStepUp } from '../../support/saml-step-up';
import { TestBrowser } from '../../support/sso-browser';
import { startTestStack, type TestStack } from '../../support/stack';

/**
 * SAML sign-in through the seam (docs/sso-saml.md): /auth/sso/start → the IdP (a test IdP that
 * signs its answers) → the browser's form POST to /auth/sso/saml/acs → the session, as a password
 * login opens it.
 */
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

const app = () => stack.urls.app;
const samlWorkspace = () => samlSsoWorkspace(stack, idp, dns);
const start = (browser: TestBrowser, email: string) => startSamlAt(app(), idp, browser, email);
const answer = (organizationId: string, requestId: string, email: string, signed = true) => samlAnswer(app(), idp, organizationId, requestId, email, signed);

describe('SAML sign-in through the seam', () => {
  it('when a new person of a listed domain signs in at the IdP, then the post to the ACS opens their session (just-in-time member), once', async () => {
    const ws = await samlWorkspace();
    const browser = new TestBrowser('');
    const email = `ada@${ws.domain}`;
    const { requestId, relayState } = await start(browser, email);

    const form = { SAMLResponse: answer(ws.organizationId, requestId, email), RelayState: relayState };
    const acs = await browser.request('POST', `${app()}/auth/sso/saml/acs`, form);

    expect(acs.status).toBe(303);
    expect(new URL(acs.location!).pathname).toBe('/');
    const cookie = browser.cookie(new URL(app()).origin, SESSION_COOKIE)!;
    const session = await dashboard(app(), 'GET', '/auth/session', { session: { cookie, csrf: '' } });
    expect(session.status).toBe(200);
    expect(session.body.data).toMatchObject({ user: { email }, role: 'MEMBER', organization: { id: ws.organizationId } });
    const audit = await knexOf(stack.orm)('audit_log').where({ organization_id: ws.organizationId, action: 'sso.login' }).first();
    expect(audit.details).toMatchObject({ protocol: 'saml', just_in_time: true });
    // The same post again: the attempt is spent.
    const again = await browser.request('POST', `${app()}/auth/sso/saml/acs`, form);
    expect(again.status).toBe(400);
    expect(JSON.parse(again.body)).toMatchObject({ code: 'sso_state_invalid' });
  });

  it('when the answer is unsigned, or posted from another browser, then nobody is signed in', async () => {
    const ws = await samlWorkspace();
    const email = `bob@${ws.domain}`;
    const victim = new TestBrowser('');
    const started = await start(victim, email);
    const unsigned = await victim.request('POST', `${app()}/auth/sso/saml/acs`, {
      SAMLResponse: answer(ws.organizationId, started.requestId, email, false),
      RelayState: started.relayState,
    });
    expect(unsigned.status).toBe(401);
    expect(JSON.parse(unsigned.body)).toMatchObject({ code: 'saml_unsigned' });
    expect(victim.cookie(new URL(app()).origin, SESSION_COOKIE)).toBeUndefined();

    // Login CSRF: an attacker's own sign-in, posted by another browser, finds no attempt of that browser.
    const attacker = new TestBrowser('');
    const theirs = await start(attacker, email);
    const other = new TestBrowser('');
    const posted = await other.request('POST', `${app()}/auth/sso/saml/acs`, {
      SAMLResponse: answer(ws.organizationId, theirs.requestId, email),
      RelayState: theirs.relayState,
    });
    expect(posted.status).toBe(400);
    expect(JSON.parse(posted.body)).toMatchObject({ code: 'sso_state_invalid' });
    expect(await knexOf(stack.orm)('users').where({ email }).first()).toBeUndefined();
  });

  it('when the IdP asks for the service provider metadata, then it names the entity id and the ACS URL; a workspace without SAML has none', async () => {
    const ws = await samlWorkspace();
    const res = await fetch(`${app()}/auth/sso/saml/metadata/${ws.organizationId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await res.text();
    expect(xml).toContain(`entityID="${samlEntityIdOf(app(), ws.organizationId)}"`);
    expect(xml).toContain(`Location="${samlAcsUrlOf(app())}"`);
    expect((await fetch(`${app()}/auth/sso/saml/metadata/${randomUUID()}`)).status).toBe(404);
  });

  it('when the IdP answers a step-up with an old AuthnInstant (it ignored ForceAuthn), then the session is not stepped up; a sign-in there just now steps it up', async () => {
    const ws = await samlWorkspace();
    const email = `eve@${ws.domain}`;
    const signedIn = await signInThroughSaml(app(), idp, ws.organizationId, email);
    const cookie = signedIn.session!;
    const session = { cookie, csrf: (await dashboard(app(), 'GET', '/auth/session', { session: { cookie, csrf: '' } })).body.data.csrf_token };
    const enrol = () => dashboard(app(), 'POST', '/auth/2fa/setup', { session, body: {} });

    const stale = await samlStepUp(app(), idp, ws.organizationId, session, email, { authnInstant: new Date(Date.now() - 10 * 60_000) });
    expect({ status: stale.status, code: JSON.parse(stale.body).code }).toEqual({ status: 403, code: 'step_up_failed' });
    expect(JSON.parse(stale.body).error).toMatch(/2 minutes/);
    expect((await enrol()).body.code).toBe('step_up_required');
    // Just past the two minutes is still too old.
    const justPast = await samlStepUp(app(), idp, ws.organizationId, session, email, { authnInstant: new Date(Date.now() - 125_000) });
    expect(justPast.status).toBe(403);

    const fresh = await samlStepUp(app(), idp, ws.organizationId, session, email);
    expect(fresh.status).toBe(303);
    expect((await enrol()).status).toBe(200);
  });
});
