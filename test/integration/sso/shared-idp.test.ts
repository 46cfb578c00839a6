import { knexOf } from '../../../src/db/knex';
import { addUser } from '../../../src/services/workspace';
import { dashboardFixture } from '../../support/dashboard';
import { makeTestIdp, type TestIdp } from '../../support/saml-idp';
import { samlSsoWorkspace, signInThroughSaml } from '../../support/saml-sign-in';
import { dnsFixture } from '../../support/sso-domains';

/**
 * An external identity links to an account only in the workspace whose connection asserted it
 * (docs/security.md): a SAML entity id is free text, so two workspaces may name the same one, each
 * with its own signing key. A's links never sign anyone into B, and B cannot pre-link A's people.
 */
const dns = dnsFixture();
const fx = dashboardFixture({ env: () => ({ DNS_RESOLVERS: dns.server.address }) });
const SHARED_ENTITY_ID = 'https://idp.shared.example/saml';
let idpA: TestIdp;
let idpB: TestIdp;
beforeAll(() => {
  idpA = makeTestIdp(SHARED_ENTITY_ID);
  idpB = makeTestIdp(SHARED_ENTITY_ID);
});

const app = () => fx.stack.urls.app;
const db = () => knexOf(fx.stack.orm);
/** An IdP's answer naming the person by an opaque id, their address in an attribute (as many IdPs send it). */
const asEmployee = (id: string, email: string) => ({
  nameId: id,
  nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
  attributes: { email },
});
const whoIs = async (cookie: string | undefined) =>
  (await fx.api('GET', '/auth/session', { session: { cookie: cookie!, csrf: '' } })).body.data as { user: { email: string }; organization: { id: string } };
const links = (issuer: string, subject: string) =>
  db()('external_identities').select('organization_id', 'user_id').where({ issuer, subject }).orderBy('organization_id');

describe('Two workspaces naming one SAML entity id', () => {
  it('when B’s IdP asserts the subject A’s IdP linked to a person, then B signs in its own person, never A’s (even one who is also B’s member)', async () => {
    const a = await samlSsoWorkspace(fx.stack, idpA, dns.server);
    const b = await samlSsoWorkspace(fx.stack, idpB, dns.server);
    const subject = `emp-${a.domain}`;
    const alice = `alice@${a.domain}`;
    const first = await signInThroughSaml(app(), idpA, a.organizationId, alice, asEmployee(subject, alice));
    expect(first.status).toBe(303);
    // Alice also joined B (by invitation): B's IdP vouching for someone else must still not reach her.
    const aliceId = (await db()('users').where({ email: alice }).first()).id as string;
    await addUser(fx.stack.orm, { organizationId: b.organizationId, email: alice, password: 'unused long password', role: 'MEMBER', verified: true });

    const bob = `bob@${b.domain}`;
    const atB = await signInThroughSaml(app(), idpB, b.organizationId, bob, asEmployee(subject, bob));
    expect(atB.status).toBe(303);
    expect(await whoIs(atB.session)).toMatchObject({ user: { email: bob }, organization: { id: b.organizationId } });
    const bobId = (await db()('users').where({ email: bob }).first()).id as string;
    expect(await links(SHARED_ENTITY_ID, subject)).toEqual(
      [
        { organization_id: a.organizationId, user_id: aliceId },
        { organization_id: b.organizationId, user_id: bobId },
      ].sort((x, y) => x.organization_id.localeCompare(y.organization_id)),
    );
    // A's link still signs Alice in at A.
    const again = await signInThroughSaml(app(), idpA, a.organizationId, alice, asEmployee(subject, alice));
    expect(await whoIs(again.session)).toMatchObject({ user: { email: alice }, organization: { id: a.organizationId } });
  });

  it('when B’s IdP links a subject first, then A’s IdP asserting it signs in A’s own new person: B cannot pre-link A’s people', async () => {
    const a = await samlSsoWorkspace(fx.stack, idpA, dns.server);
    const b = await samlSsoWorkspace(fx.stack, idpB, dns.server);
    const subject = `emp-first-${b.domain}`;
    const mallory = `mallory@${b.domain}`;
    expect((await signInThroughSaml(app(), idpB, b.organizationId, mallory, asEmployee(subject, mallory))).status).toBe(303);

    const carol = `carol@${a.domain}`;
    const atA = await signInThroughSaml(app(), idpA, a.organizationId, carol, asEmployee(subject, carol));
    expect(atA.status).toBe(303);
    expect(await whoIs(atA.session)).toMatchObject({ user: { email: carol }, organization: { id: a.organizationId } });
    expect((await links(SHARED_ENTITY_ID, subject)).map((l) => l.organization_id).sort()).toEqual([a.organizationId, b.organizationId].sort());
  });
});
