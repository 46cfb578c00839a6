import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { idpMetadataXml, makeTestIdp } from '../../support/saml-idp';
import { createSealer } from '../../../src/services/sealing/seal';
import { setPlan } from '../../../src/services/workspace';
import { dashboardFixture, expectDashboardError, memberSession, signUpAndLogIn } from '../../support/dashboard';
import { TestBrowser } from '../../support/sso-browser';
import { dnsFixture, proveSsoDomain } from '../../support/sso-domains';
import { TEST_SECRET } from '../../support/stack';

/** `GET/PUT/DELETE /api/sso` (docs/sso.md): who may, on which plan, what is stored and what is never answered. */
const dns = dnsFixture();
const fx = dashboardFixture({ env: () => ({ DNS_RESOLVERS: dns.server.address }) });

const SECRET = 'the-client-secret-of-the-idp-0123456789';

async function businessOwner() {
  const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
  await setPlan(fx.stack.orm, owner.organizationId, 'BUSINESS');
  return owner;
}

const oidcBody = (domain: string, extra: Record<string, unknown> = {}) => ({
  type: 'oidc',
  issuer: 'https://idp.example.com/tenant-1',
  client_id: 'klaxon',
  client_secret: SECRET,
  domains: [domain],
  default_role: 'MEMBER',
  require_sso: false,
  ...extra,
});

const freshDomain = () => `corp-${randomUUID().slice(0, 8)}.example`;

const connectionRow = (organizationId: string) => knexOf(fx.stack.orm)('sso_connections').where({ organization_id: organizationId }).first();

describe('SSO settings', () => {
  it('when a BUSINESS Billing Owner saves OIDC settings with a step-up, then GET answers them without the secret, which is sealed at rest', async () => {
    const owner = await businessOwner();
    const domain = freshDomain();
    const put = await fx.api('PUT', '/sso', { session: owner, body: { ...oidcBody(domain.toUpperCase()), password: owner.password } });
    expect(put.status).toBe(200);
    const get = await fx.api('GET', '/sso', { session: owner });
    expect(get.status).toBe(200);
    expect(get.body.data).toEqual({
      type: 'oidc',
      issuer: 'https://idp.example.com/tenant-1',
      client_id: 'klaxon',
      client_secret_set: true,
      domains: [{ domain, verified: false, txt_record: expect.stringMatching(/^klaxon-verification=[\w-]{43}$/) }],
      default_role: 'MEMBER',
      require_sso: false,
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(put.body) + JSON.stringify(get.body)).not.toContain(SECRET);
    const row = await connectionRow(owner.organizationId);
    expect(row.client_secret_sealed).not.toContain(SECRET);
    expect(createSealer(TEST_SECRET).open(row.client_secret_sealed)).toBe(SECRET);
    expect(fx.stack.logs.lines.join('\n')).not.toContain(SECRET);

    // A later save without client_secret keeps the stored one.
    const again = await fx.api('PUT', '/sso', { session: owner, body: { ...oidcBody(domain, { require_sso: true }), client_secret: undefined } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ client_secret_set: true, require_sso: true });
    expect(createSealer(TEST_SECRET).open((await connectionRow(owner.organizationId)).client_secret_sealed)).toBe(SECRET);

    const audit = await fx.api('GET', '/audit-log', { session: owner });
    const actions = audit.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['sso.create', 'sso.update']));
    expect(JSON.stringify(audit.body)).not.toContain(SECRET);
  });

  it('when the plan is not BUSINESS, then every /api/sso route answers 403 plan_limit_reached', async () => {
    const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    for (const plan of ['FREE', 'PRO'] as const) {
      await setPlan(fx.stack.orm, owner.organizationId, plan);
      expectDashboardError(await fx.api('GET', '/sso', { session: owner }), 403, 'plan_limit_reached', /BUSINESS/);
      expectDashboardError(
        await fx.api('PUT', '/sso', { session: owner, body: { ...oidcBody(freshDomain()), password: owner.password } }),
        403,
        'plan_limit_reached',
      );
      expectDashboardError(await fx.api('DELETE', '/sso', { session: owner }), 403, 'plan_limit_reached');
    }
    expect(await connectionRow(owner.organizationId)).toBeUndefined();
  });

  it('when a Team Manager or a Member asks, then 403 forbidden; an Account Admin may', async () => {
    const owner = await businessOwner();
    for (const role of ['TEAM_MANAGER', 'MEMBER'] as const) {
      const s = await memberSession(fx.stack.urls.app, fx.stack.orm, owner.organizationId, role);
      expectDashboardError(await fx.api('GET', '/sso', { session: s }), 403, 'forbidden');
      expectDashboardError(await fx.api('PUT', '/sso', { session: s, body: { ...oidcBody(freshDomain()), password: s.password } }), 403, 'forbidden');
    }
    const admin = await memberSession(fx.stack.urls.app, fx.stack.orm, owner.organizationId, 'ACCOUNT_ADMIN');
    expect((await fx.api('PUT', '/sso', { session: admin, body: { ...oidcBody(freshDomain()), password: admin.password } })).status).toBe(200);
  });

  it('when no step-up comes with a change, then 403 step_up_required and nothing changes', async () => {
    const owner = await businessOwner();
    // signUpAndLogIn's session is a password login without a second factor: not stepped up.
    expectDashboardError(await fx.api('PUT', '/sso', { session: owner, body: oidcBody(freshDomain()) }), 403, 'step_up_required');
    expect(await connectionRow(owner.organizationId)).toBeUndefined();
    expectDashboardError(
      await fx.api('PUT', '/sso', { session: owner, body: { ...oidcBody(freshDomain()), password: 'wrong password!' } }),
      403,
      'step_up_failed',
    );
    expect(await connectionRow(owner.organizationId)).toBeUndefined();
  });

  it.each([
    ['an http:// issuer', { issuer: 'http://idp.example.com' }, /issuer/],
    ['an issuer with a query', { issuer: 'https://idp.example.com/?x=1' }, /issuer/],
    ['a domain that is no domain', { domains: ['not a domain'] }, /domains\.0/],
    ['Billing Owner as the default role', { default_role: 'BILLING_OWNER' }, /default_role/],
    ['require_sso as a string', { require_sso: 'yes' }, /require_sso/],
    ['an unknown field', { client_secret_set: true }, /client_secret_set/],
    ['an unknown type', { type: 'ldap' }, /type/],
    ['a client_id of 300 characters', { client_id: 'x'.repeat(300) }, /client_id/],
    ['no client secret the first time', { client_secret: undefined }, /client_secret/],
    ['51 domains', { domains: Array.from({ length: 51 }, (_, i) => `d${i}.example`) }, /domains/],
  ])('when the body has %s, then 400 names the field and nothing is stored', async (_what, change, field) => {
    const owner = await businessOwner();
    const res = await fx.api('PUT', '/sso', { session: owner, body: { ...oidcBody(freshDomain()), ...change, password: owner.password } });
    expectDashboardError(res, 400, 'invalid_request', field);
    expect(await connectionRow(owner.organizationId)).toBeUndefined();
    expectDashboardError(await fx.api('GET', '/sso', { session: owner }), 404, 'not_found');
  });

  it('when SAML settings come as metadata or as entity id, URL and certificate, then they are stored and sign-in starts at the IdP; half of both, or what does not read, is 400', async () => {
    const owner = await businessOwner();
    const domain = freshDomain();
    const idp = makeTestIdp('https://idp.example.com/saml');
    const metadata = idpMetadataXml(idp);
    // Tested before saving: the metadata reads; nothing is stored.
    const tested = await fx.api('POST', '/sso/test', { session: owner, body: { type: 'saml', idp_metadata_xml: metadata, domains: [domain] } });
    expect(tested.status).toBe(200);
    expect(tested.body.data).toEqual({ entity_id: idp.entityId, sso_url: idp.ssoUrl, signing_certificates: 1 });
    expect(await connectionRow(owner.organizationId)).toBeUndefined();
    const byMetadata = await fx.api('PUT', '/sso', {
      session: owner,
      body: { type: 'saml', idp_metadata_xml: metadata, domains: [domain], password: owner.password },
    });
    expect(byMetadata.status).toBe(200);
    expect(byMetadata.body.data).toMatchObject({
      type: 'saml',
      idp_metadata_xml: metadata,
      domains: [{ domain, verified: false }],
      default_role: 'MEMBER',
      require_sso: false,
    });
    const manual = { type: 'saml', idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.cert.trim() };
    const byFields = await fx.api('PUT', '/sso', { session: owner, body: { ...manual, domains: [domain] } });
    expect(byFields.status).toBe(200);
    expect(byFields.body.data).toMatchObject(manual);
    expect(byFields.body.data.idp_metadata_xml).toBeUndefined();
    const half = await fx.api('PUT', '/sso', { session: owner, body: { type: 'saml', idp_entity_id: 'x', domains: [domain] } });
    expectDashboardError(half, 400, 'invalid_request', /idp_sso_url/);
    const badCertificate = await fx.api('PUT', '/sso', { session: owner, body: { ...manual, idp_certificate: 'MIIC…', domains: [domain] } });
    expectDashboardError(badCertificate, 400, 'invalid_request', /idp_certificate/);
    const noKey = '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com/saml"/>';
    expectDashboardError(
      await fx.api('PUT', '/sso', { session: owner, body: { type: 'saml', idp_metadata_xml: noKey, domains: [domain] } }),
      400,
      'invalid_request',
      /idp_metadata_xml/,
    );
    expect((await fx.api('GET', '/sso', { session: owner })).body.data).toMatchObject(manual);
    // Sign-in starts at the IdP's SSO URL with an AuthnRequest and our RelayState (by the workspace: its domain is not proven).
    const start = await new TestBrowser('').startSso(`${fx.stack.urls.app}/auth/sso/start?organization_id=${owner.organizationId}`);
    expect(start.status).toBe(302);
    const to = new URL(start.location!);
    expect(`${to.origin}${to.pathname}`).toBe(idp.ssoUrl);
    expect(to.searchParams.get('SAMLRequest')).toBeTruthy();
    expect(to.searchParams.get('RelayState')).toBeTruthy();
  });

  it('when a domain is proven by another workspace, then 409 sso_domain_taken and nothing changes', async () => {
    const first = await businessOwner();
    const second = await businessOwner();
    const domain = freshDomain();
    expect((await fx.api('PUT', '/sso', { session: first, body: { ...oidcBody(domain), password: first.password } })).status).toBe(200);
    await proveSsoDomain(fx.stack.urls.app, first, dns.server, domain);
    const res = await fx.api('PUT', '/sso', { session: second, body: { ...oidcBody(domain), password: second.password } });
    expectDashboardError(res, 409, 'sso_domain_taken', new RegExp(domain.replaceAll('.', '\\.')));
    expect(await connectionRow(second.organizationId)).toBeUndefined();
  });

  it('when SSO is deleted after a step-up, then its settings and domains are gone and the log says so', async () => {
    const owner = await businessOwner();
    const domain = freshDomain();
    expect((await fx.api('PUT', '/sso', { session: owner, body: { ...oidcBody(domain), password: owner.password } })).status).toBe(200);
    // The step-up above is good for 5 minutes.
    const del = await fx.api('DELETE', '/sso', { session: owner });
    expect(del.status).toBe(200);
    expectDashboardError(await fx.api('GET', '/sso', { session: owner }), 404, 'not_found');
    expect(await knexOf(fx.stack.orm)('sso_domains').where({ domain }).first()).toBeUndefined();
    expectDashboardError(await fx.api('DELETE', '/sso', { session: owner }), 404, 'not_found');
    const audit = await fx.api('GET', '/audit-log?action=sso.delete', { session: owner });
    expect(audit.body.data).toHaveLength(1);
  });

  it('when the connection test names a loopback or metadata issuer, then the SSRF guard refuses it (ALLOW_PRIVATE_TARGETS is off)', async () => {
    const owner = await businessOwner();
    for (const issuer of ['https://127.0.0.1:9/', 'https://169.254.169.254/']) {
      const res = await fx.api('POST', '/sso/test', { session: owner, body: oidcBody(freshDomain(), { issuer }) });
      expectDashboardError(res, 401, 'sso_failed', /private address|metadata address/);
    }
  });

  it('when one client address starts single sign-on over and over, then past 120 starts in 10 minutes it is 429 rate_limited', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 125; i++) {
      // Each through the start page's form, as a browser starts (the page itself is not counted: it stores nothing).
      const res = await new TestBrowser('').startSso(`${fx.stack.urls.app}/auth/sso/start?email=someone-${i}@nowhere.example`);
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 404).length).toBeGreaterThanOrEqual(115);
  });
});
