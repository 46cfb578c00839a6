import { randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { knexOf } from '../../../src/db/knex';
import { setPlan } from '../../../src/services/workspace';
import { dashboardFixture, expectDashboardError, signUpAndLogIn, SESSION_COOKIE, type DashboardSession } from '../../support/dashboard';
import { makeTestIdp, type TestIdp } from '../../support/saml-idp';
import { samlAnswer } from '../../support/saml-sign-in';
import { babsJensen, expectScimError, scimClient } from '../../support/scim';
import { TestBrowser } from '../../support/sso-browser';
import { dnsFixture, proveSsoDomain } from '../../support/sso-domains';

/**
 * Email domains need proof (docs/sso.md, "Proving a domain"): a DNS TXT record
 * `klaxon-verification=<token>`, looked up through DNS_RESOLVERS (a UDP DNS server this file
 * starts), before a domain routes logins, admits people just in time or lets SCIM create accounts.
 */
const dns = dnsFixture();
const fx = dashboardFixture({ env: () => ({ DNS_RESOLVERS: dns.server.address }) });
let idp: TestIdp;
beforeAll(() => {
  idp = makeTestIdp();
});

const app = () => fx.stack.urls.app;
const db = () => knexOf(fx.stack.orm);
const freshDomain = () => `proof-${randomUUID().slice(0, 8)}.test`;

/** A BUSINESS workspace whose owner set up SAML listing `domains` (none proven yet). */
async function listing(domains: string[]) {
  const owner = await signUpAndLogIn(app(), fx.stack.orm);
  await setPlan(fx.stack.orm, owner.organizationId, 'BUSINESS');
  const body = { type: 'saml', idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.cert, domains, password: owner.password };
  const put = await fx.api('PUT', '/sso', { session: owner, body });
  expect(put.status).toBe(200);
  return owner;
}

const domainsOf = async (session: DashboardSession) => (await fx.api('GET', '/sso', { session })).body.data.domains;
const verify = (session: DashboardSession, domain: string) => fx.api('POST', `/sso/domains/${domain}/verify`, { session });

/** Where a login for `email` goes: 404 (nowhere), or the workspace whose SP asked the IdP (the AuthnRequest's Issuer). */
async function routeOf(email: string): Promise<string | number> {
  const res = await new TestBrowser('').startSso(`${app()}/auth/sso/start?email=${encodeURIComponent(email)}`);
  if (res.status !== 302) return res.status;
  const request = inflateRawSync(Buffer.from(new URL(res.location!).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  return /\/auth\/sso\/saml\/metadata\/([0-9a-f-]{36})</.exec(request)![1];
}

describe('Proving an email domain by DNS', () => {
  it('when the TXT record is published and verified, then the domain shows verified and its logins go to the IdP; before, they went nowhere', async () => {
    const domain = freshDomain();
    const owner = await listing([domain]);
    const [listed] = await domainsOf(owner);
    expect(listed).toEqual({ domain, verified: false, txt_record: expect.stringMatching(/^klaxon-verification=[\w-]{43}$/) });
    expect(await routeOf(`ada@${domain}`)).toBe(404);

    dns.server.setTxt(domain, [['v=spf1 -all'], [listed.txt_record]]);
    const res = await verify(owner, domain.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ domain, verified: true });
    expect(dns.server.asked).toContain(domain);
    expect(await domainsOf(owner)).toEqual([{ ...listed, verified: true }]);
    expect(await routeOf(`ada@${domain}`)).toBe(owner.organizationId);
    const audit = await fx.api('GET', '/audit-log?action=sso.domain_verify', { session: owner });
    expect(audit.body.data[0]).toMatchObject({ action: 'sso.domain_verify', details: { domain } });

    // Saving the settings again keeps the proof and the record; a domain added is unproven.
    const added = freshDomain();
    const again = await fx.api('PUT', '/sso', {
      session: owner,
      body: { type: 'saml', idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.cert, domains: [domain, added] },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.domains).toEqual(
      [
        { ...listed, verified: true },
        { domain: added, verified: false, txt_record: expect.any(String) },
      ].sort((a, b) => a.domain.localeCompare(b.domain)),
    );
  });

  it('when the TXT record is missing, another workspace’s, or the lookup fails, then 409 domain_unverified names the record and the domain stays unproven', async () => {
    const domain = freshDomain();
    const owner = await listing([domain]);
    const [{ txt_record: record }] = await domainsOf(owner);
    const named = new RegExp(`${record}.*${domain.replaceAll('.', '\\.')}|${domain.replaceAll('.', '\\.')}.*${record}`);
    expectDashboardError(await verify(owner, domain), 409, 'domain_unverified', named);
    dns.server.setTxt(domain, [['klaxon-verification=the-token-of-another-workspace-0123456789ab']]);
    expectDashboardError(await verify(owner, domain), 409, 'domain_unverified', named);
    dns.server.fail(domain);
    expectDashboardError(await verify(owner, domain), 409, 'domain_unverified', /DNS lookup of .* failed/);
    expect(await domainsOf(owner)).toEqual([{ domain, verified: false, txt_record: record }]);
    expect(await db()('sso_domains').where({ domain }).whereNotNull('verified_at').first()).toBeUndefined();
  });

  it('when two workspaces list a domain, then neither blocks the other until one proves it; the other then cannot (409 sso_domain_taken) and a third cannot list it', async () => {
    const domain = freshDomain();
    const early = await listing([domain]);
    // An unproven listing blocks nobody.
    const prover = await listing([domain]);
    await proveSsoDomain(app(), prover, dns.server, domain);
    expect(await routeOf(`ada@${domain}`)).toBe(prover.organizationId);

    // The one that listed it first publishes its own record: too late, it stays unproven there and routes nothing.
    const [{ txt_record: earlyRecord }] = await domainsOf(early);
    dns.server.setTxt(domain, [[earlyRecord]]);
    expectDashboardError(await verify(early, domain), 409, 'sso_domain_taken', new RegExp(domain.replaceAll('.', '\\.')));
    expect(await domainsOf(early)).toEqual([{ domain, verified: false, txt_record: earlyRecord }]);
    expect(await routeOf(`ada@${domain}`)).toBe(prover.organizationId);

    const late = await signUpAndLogIn(app(), fx.stack.orm);
    await setPlan(fx.stack.orm, late.organizationId, 'BUSINESS');
    const body = { type: 'saml', idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.cert, domains: [domain], password: late.password };
    expectDashboardError(await fx.api('PUT', '/sso', { session: late, body }), 409, 'sso_domain_taken');
    expect(await db()('sso_connections').where({ organization_id: late.organizationId }).first()).toBeUndefined();
  });

  it('when a just-in-time sign-in or SCIM meets an address of a listed but unproven domain, then nobody is let in; once proven, they are', async () => {
    const domain = freshDomain();
    const owner = await listing([domain]);
    const issued = await fx.api('POST', '/sso/scim-token', { session: owner, body: { password: owner.password } });
    const scim = scimClient(app(), issued.body.data.token);
    const email = `new-${randomUUID().slice(0, 8)}@${domain}`;

    const signIn = async () => {
      const browser = new TestBrowser('');
      const start = await browser.startSso(`${app()}/auth/sso/start?organization_id=${owner.organizationId}`);
      const url = new URL(start.location!);
      const requestId = /\bID="([^"]+)"/.exec(inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8'))![1];
      const form = { SAMLResponse: samlAnswer(app(), idp, owner.organizationId, requestId, email), RelayState: url.searchParams.get('RelayState')! };
      const acs = await browser.request('POST', `${app()}/auth/sso/saml/acs`, form);
      return { status: acs.status, body: acs.body, session: browser.cookie(new URL(app()).origin, SESSION_COOKIE) };
    };
    const refused = await signIn();
    expect({ status: refused.status, code: JSON.parse(refused.body).code, session: refused.session }).toEqual({
      status: 403,
      code: 'sso_domain_not_allowed',
      session: undefined,
    });
    expectScimError(await scim('POST', '/Users', babsJensen(`scim-${email}`)), 400, 'invalidValue', /userName/);
    expect(
      await db()('users')
        .whereIn('email', [email, `scim-${email}`])
        .first(),
    ).toBeUndefined();

    await proveSsoDomain(app(), owner, dns.server, domain);
    const admitted = await signIn();
    expect(admitted.status).toBe(303);
    expect(admitted.session).toBeDefined();
    expect((await scim('POST', '/Users', babsJensen(`scim-${email}`))).status).toBe(201);
  });

  it('when the domain to verify is not listed, not a domain name, or too long, then 404/400 names the domain and nothing changes', async () => {
    const domain = freshDomain();
    const owner = await listing([domain]);
    const rows = async () => ({
      domains: await db()('sso_domains').where({ organization_id: owner.organizationId }),
      audit: await db()('audit_log').where({ organization_id: owner.organizationId }).count({ n: '*' }),
    });
    const before = await rows();
    const asked = dns.server.asked.length;
    expectDashboardError(await verify(owner, freshDomain()), 404, 'not_found', /^domain: .* is not one of this workspace/);
    expectDashboardError(await verify(owner, 'not_a_domain'), 400, 'invalid_request', /^domain:/);
    expectDashboardError(await verify(owner, `${'a'.repeat(300)}.test`), 400, 'invalid_request', /^domain:/);
    expectDashboardError(await verify(owner, encodeURIComponent('a.test; drop table users')), 400, 'invalid_request', /^domain:/);
    expect(await rows()).toEqual(before);
    expect(dns.server.asked.length).toBe(asked);
  });
});
