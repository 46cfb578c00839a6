import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { addUser } from '../../../src/services/workspace';
import { dashboardFixture, expectDashboardError, sessionCookieFrom, signUpAndLogIn, type DashboardSession } from '../../support/dashboard';
import { makeTestIdp, type TestIdp } from '../../support/saml-idp';
import { samlSsoWorkspace, signInThroughSaml } from '../../support/saml-sign-in';
import { samlStepUp } from '../../support/saml-step-up';
import { babsJensen, expectScimError, scimClient } from '../../support/scim';
import { TestBrowser } from '../../support/sso-browser';
import { dnsFixture } from '../../support/sso-domains';

/**
 * The chain of the security review (docs/security.md, "Single sign-on and SCIM trust boundaries"):
 * workspace B's SCIM adopts victim@other, B's IdP asserts that address, gets a session as the
 * victim, steps up at B's IdP and enrols its own two-factor on the victim's account. Every step
 * is refused, and the victim's own workspace is untouched.
 */
const dns = dnsFixture();
const fx = dashboardFixture({ env: () => ({ DNS_RESOLVERS: dns.server.address }) });
let idpB: TestIdp;
beforeAll(() => {
  idpB = makeTestIdp('https://idp.b.example/saml');
});

const app = () => fx.stack.urls.app;
const db = () => knexOf(fx.stack.orm);

/** The attacker: a BUSINESS workspace with SAML (its own IdP), a proven domain and a SCIM token. */
async function workspaceB() {
  const ws = await samlSsoWorkspace(fx.stack, idpB, dns.server);
  const issued = await fx.api('POST', '/sso/scim-token', { session: ws.owner, body: { password: ws.owner.password } });
  return { ...ws, scim: scimClient(app(), issued.body.data.token) };
}

/** What Klaxon holds about the victim: their account, memberships, SCIM records and IdP links. */
const victimRows = async (userId: string) => ({
  user: await db()('users').select('id', 'email', 'password_hash', 'totp_secret', 'provisioned_by_organization_id').where({ id: userId }).first(),
  memberships: await db()('memberships').select('organization_id', 'role').where({ user_id: userId }).orderBy('organization_id'),
  scim: await db()('scim_users').where({ user_id: userId }),
  links: await db()('external_identities').where({ user_id: userId }),
});

/** B's IdP signs `email` in at B (B's start page by workspace, then B's signed answer to the ACS). */
const signInAtB = (organizationId: string, email: string) => signInThroughSaml(app(), idpB, organizationId, email);

type Session = Pick<DashboardSession, 'cookie' | 'csrf'>;

/** A password login, moved into `organizationId`. */
async function passwordSessionIn(who: DashboardSession, organizationId: string): Promise<Session> {
  const login = await fx.api('POST', '/auth/login', { body: { email: who.email, password: who.password } });
  const session = { cookie: sessionCookieFrom(login)!, csrf: login.body.data.csrf_token };
  if (login.body.data.organization.id === organizationId) return session;
  const switched = await fx.api('POST', '/auth/switch-workspace', { session, body: { organization_id: organizationId } });
  expect(switched.status).toBe(200);
  return { cookie: sessionCookieFrom(switched)!, csrf: switched.body.data.csrf_token };
}

describe('The SCIM → SSO chain against an account of another workspace', () => {
  it('when B’s SCIM and IdP go after victim@other, then SCIM cannot adopt it, the IdP gets no session and no link, and the victim’s workspace is unaffected', async () => {
    const victim = await signUpAndLogIn(app(), fx.stack.orm);
    const b = await workspaceB();
    const before = await victimRows(victim.userId);

    // 1. SCIM never adopts an outside account.
    expectScimError(await b.scim('POST', '/Users', babsJensen(victim.email)), 409, 'uniqueness');
    expect(await victimRows(victim.userId)).toEqual(before);

    // B lists the victim's domain: it may (an unproven listing blocks nobody) but it routes and admits nobody.
    const victimDomain = victim.email.split('@')[1];
    const settings = (await fx.api('GET', '/sso', { session: b.owner })).body.data;
    const relisted = await fx.api('PUT', '/sso', {
      session: b.owner,
      body: {
        type: 'saml',
        idp_entity_id: settings.idp_entity_id,
        idp_sso_url: settings.idp_sso_url,
        idp_certificate: settings.idp_certificate,
        domains: [b.domain, victimDomain],
      },
    });
    expect(relisted.status).toBe(200);
    // Klaxon's login page does not send the victim to B's IdP.
    expect((await new TestBrowser('').startSso(`${app()}/auth/sso/start?email=${encodeURIComponent(victim.email)}`)).status).toBe(404);

    // 2. B's IdP asserting the victim's address: no session, no link.
    expect(await signInAtB(b.organizationId, victim.email)).toEqual({ status: 403, code: 'sso_domain_not_allowed', session: undefined });

    // 3. No step-up through B's IdP: the victim has no session in B, and their own workspace has no SSO to step up at.
    expectDashboardError(await fx.api('POST', '/auth/switch-workspace', { session: victim, body: { organization_id: b.organizationId } }), 404, 'not_found');
    expectDashboardError(await fx.api('POST', '/auth/sso/step-up', { session: victim }), 404, 'not_found');

    // 4. The victim's own workspace: as it was.
    expect(await victimRows(victim.userId)).toEqual(before);
    const login = await fx.api('POST', '/auth/login', { body: { email: victim.email, password: victim.password } });
    expect(login.body.data).toMatchObject({ organization: { id: victim.organizationId }, role: 'BILLING_OWNER' });
  });

  it('when SCIM adopted the account before this release, then B’s IdP can neither sign in as it nor step it up, and two-factor stays the victim’s', async () => {
    const victim = await signUpAndLogIn(app(), fx.stack.orm);
    const b = await workspaceB();
    // The rows the earlier SCIM and SSO code wrote: a membership and a SCIM record made together, and a link of B's IdP.
    const adoptedAt = new Date();
    await db()('memberships').insert({ id: randomUUID(), organization_id: b.organizationId, user_id: victim.userId, role: 'MEMBER', created_at: adoptedAt });
    await db()('scim_users').insert({ organization_id: b.organizationId, user_id: victim.userId, active: true, created_at: adoptedAt, updated_at: adoptedAt });
    await db()('external_identities').insert({
      id: randomUUID(),
      user_id: victim.userId,
      organization_id: b.organizationId,
      protocol: 'saml',
      issuer: idpB.entityId,
      subject: victim.email,
      email: victim.email,
      created_at: adoptedAt,
      last_login_at: adoptedAt,
    });

    expect(await signInAtB(b.organizationId, victim.email)).toEqual({ status: 403, code: 'sso_account_exists', session: undefined });

    // The victim, in B by that old membership, asked to step up at B's IdP: the IdP's answer does not count.
    const inB = await passwordSessionIn(victim, b.organizationId);
    const stepped = await samlStepUp(app(), idpB, b.organizationId, inB, victim.email);
    expect({ status: stepped.status, code: JSON.parse(stepped.body).code }).toEqual({ status: 403, code: 'step_up_failed' });
    expectDashboardError(await fx.api('POST', '/auth/2fa/setup', { session: inB, body: {} }), 403, 'step_up_required');
    expect(await db()('users').select('totp_secret', 'totp_pending_secret').where({ id: victim.userId }).first()).toEqual({
      totp_secret: null,
      totp_pending_secret: null,
    });
  });

  it('when a person B’s SCIM created signs in and steps up at B’s IdP, then both work: the refusals above are about outside accounts only', async () => {
    const b = await workspaceB();
    const email = `own-${randomUUID().slice(0, 8)}@${b.domain}`;
    const created = await b.scim('POST', '/Users', babsJensen(email));
    expect(created.status).toBe(201);
    expect(await db()('users').where({ id: created.body.id }).first()).toMatchObject({ provisioned_by_organization_id: b.organizationId });
    const signedIn = await signInAtB(b.organizationId, email);
    expect(signedIn.status).toBe(303);
    const session = {
      cookie: signedIn.session!,
      csrf: (await fx.api('GET', '/auth/session', { session: { cookie: signedIn.session!, csrf: '' } })).body.data.csrf_token,
    };
    const stepped = await samlStepUp(app(), idpB, b.organizationId, session, email);
    expect(stepped.status).toBe(303);
    // And SCIM may take them out and back in: it made the account.
    for (const active of [false, true])
      expect(
        (
          await b.scim('PATCH', `/Users/${created.body.id}`, {
            schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
            Operations: [{ op: 'replace', path: 'active', value: active }],
          })
        ).status,
      ).toBe(200);
  });

  it('when a person B’s SCIM deprovisioned is invited again and accepts, then B’s IdP signs them in: an invitation is consent', async () => {
    const b = await workspaceB();
    const email = `back-${randomUUID().slice(0, 8)}@${b.domain}`;
    const joined = { organizationId: b.organizationId, email, password: 'their own password', role: 'MEMBER' as const, verified: true };
    const person = await addUser(fx.stack.orm, joined);
    const deactivate = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] };
    expect((await b.scim('PATCH', `/Users/${person.id}`, deactivate)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await addUser(fx.stack.orm, joined);
    expect((await signInAtB(b.organizationId, email)).status).toBe(303);
  });

  it('when B’s SCIM PATCHes or PUTs one of its Users to the victim’s address, then 400 mutability and nothing changes', async () => {
    const victim = await signUpAndLogIn(app(), fx.stack.orm);
    const b = await workspaceB();
    const own = (await b.scim('POST', '/Users', babsJensen(`own-${randomUUID().slice(0, 8)}@${b.domain}`))).body;
    const before = { victim: await victimRows(victim.userId), own: await victimRows(own.id) };
    const patch = (Operations: unknown[]) => b.scim('PATCH', `/Users/${own.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations });
    expectScimError(await patch([{ op: 'replace', path: 'userName', value: victim.email }]), 400, 'mutability');
    expectScimError(await patch([{ op: 'replace', path: 'emails', value: [{ value: victim.email, primary: true }] }]), 400, 'mutability');
    expectScimError(await patch([{ op: 'replace', value: { userName: victim.email } }]), 400, 'mutability');
    expectScimError(await b.scim('PUT', `/Users/${own.id}`, babsJensen(victim.email)), 400, 'mutability');
    expect({ victim: await victimRows(victim.userId), own: await victimRows(own.id) }).toEqual(before);
  });
});
