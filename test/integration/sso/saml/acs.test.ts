import { randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { knexOf } from '../../../../src/db/knex';
import { openOrm, type MikroORM } from '../../../../src/db/orm';
import {
  completeSamlSignIn,
  samlAcsUrlOf,
  SAML_POST_LIMITS,
  samlEntityIdOf,
  startSamlSignIn,
  type SamlIdentity,
  type SamlIdpConfig,
  type SamlSignInStart,
} from '../../../../src/services/sso/saml';
import {
  assertionXml,
  base64,
  makeTestIdp,
  newId,
  responseFields,
  responseXml,
  signAssertion,
  signResponse,
  type ResponseFields,
  type TestIdp,
} from '../../../support/saml-idp';

/**
 * The SAML service provider against a test IdP and Postgres (requests and used assertion ids are
 * rows): what signs in, and every forgery, replay and misdirection that must not.
 */
const APP_URL = 'https://klaxon.example.test';
let orm: MikroORM;
let idp: TestIdp;
let otherIdp: TestIdp;
const orgId = randomUUID();
const sp = { entityId: samlEntityIdOf(APP_URL, orgId), acsUrl: samlAcsUrlOf(APP_URL) };

beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
  idp = makeTestIdp();
  otherIdp = makeTestIdp('https://other-idp.example.test/metadata');
});
afterAll(() => orm.close());

const knex = () => knexOf(orm);
const configs = new Map<string, SamlIdpConfig>();
const idpConfigOf = async (organizationId: string) => configs.get(organizationId) ?? null;
beforeEach(() => {
  configs.clear();
  configs.set(orgId, idp.config);
});

const start = (organizationId = orgId): Promise<SamlSignInStart> =>
  startSamlSignIn(knex(), { appUrl: APP_URL, organizationId }, configs.get(organizationId) ?? idp.config);
const post = (xml: string, relayState: string): Promise<SamlIdentity> =>
  completeSamlSignIn(knex(), { appUrl: APP_URL, body: { SAMLResponse: base64(xml), RelayState: relayState }, idpConfigOf });

/** A response to `started` with its assertion signed (the common IdP setting). */
function signedAssertionResponse(started: SamlSignInStart | null, over: Partial<ResponseFields> = {}, signer: TestIdp = idp): string {
  const f = responseFields(sp, idp, started?.requestId ?? null, over);
  return responseXml(f, signAssertion(assertionXml(f), signer));
}
/** A response to `started` signed as a whole, its assertion unsigned. */
function signedWholeResponse(started: SamlSignInStart, over: Partial<ResponseFields> = {}): string {
  const f = responseFields(sp, idp, started.requestId, over);
  return signResponse(responseXml(f, assertionXml(f)), idp);
}

/** Expects a refusal with `code` whose message quotes nothing from the document. */
async function expectRefused(attempt: Promise<unknown>, code: string) {
  const err = await attempt.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toMatchObject({ name: 'SamlRejected', kind: 'unauthorized', code });
  const message = (err as Error).message;
  expect(message).not.toMatch(/[<>]/);
  expect(message).not.toContain('example.com');
  expect(message).not.toContain('BEGIN');
}

describe('SAML sign-in: start', () => {
  it('when sign-in starts, then the IdP URL carries a deflated AuthnRequest for our entity id and ACS, and the request waits in Postgres', async () => {
    const started = await start();
    const url = new URL(started.redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe(idp.ssoUrl);
    expect(url.searchParams.get('RelayState')).toBe(started.relayState);
    expect(Buffer.byteLength(started.relayState)).toBeLessThanOrEqual(80);
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    expect(request).toContain(`ID="${started.requestId}"`);
    expect(request).toContain(`AssertionConsumerServiceURL="${sp.acsUrl}"`);
    expect(request).toContain(`>${sp.entityId}</saml:Issuer>`);
    const row = await knex()('saml_requests').where({ id: started.requestId }).first();
    expect(row).toMatchObject({ organization_id: orgId, relay_state: started.relayState });
    expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
  });
});

describe('SAML sign-in: what signs in', () => {
  it('when the assertion is signed by the IdP, then the identity is its lower-cased email in the workspace of the request', async () => {
    const started = await start();
    const identity = await post(signedAssertionResponse(started, { nameId: 'Alice@Example.COM' }), started.relayState);
    expect(identity).toMatchObject({ organizationId: orgId, email: 'alice@example.com', issuer: idp.entityId });
  });

  it('when the response is signed and its assertion is not, then the identity is read from the signed response', async () => {
    const started = await start();
    const identity = await post(signedWholeResponse(started, { nameId: 'bob@example.com' }), started.relayState);
    expect(identity).toMatchObject({ organizationId: orgId, email: 'bob@example.com' });
  });

  it('when the NameID is not an email, then the email attribute names the person', async () => {
    const started = await start();
    const xml = signedAssertionResponse(started, {
      nameId: 'u-12345',
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      attributes: { 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': 'Carol@Example.com' },
    });
    expect((await post(xml, started.relayState)).email).toBe('carol@example.com');
  });

  it('when the assertion lists a thousand groups (a large directory), then it is under the size cap and signs in', async () => {
    const started = await start();
    const groups = Array.from({ length: 1000 }, (_, i) => `engineering-team-${i}`);
    const xml = signedAssertionResponse(started, { attributes: { groups } });
    expect(base64(xml).length).toBeGreaterThan(50 * 1024);
    await expect(post(xml, started.relayState)).resolves.toMatchObject({ email: 'alice@example.com' });
  });

  it('when neither the NameID nor any attribute is an email, then it is refused', async () => {
    const started = await start();
    const xml = signedAssertionResponse(started, {
      nameId: 'u-12345',
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      attributes: { email: ['a@example.com', 'b@example.com'] },
    });
    await expectRefused(post(xml, started.relayState), 'saml_invalid');
  });

  it('when the clocks differ by less than the allowed skew, then a just-expired or just-issued assertion still signs in', async () => {
    const [late, early] = [await start(), await start()];
    const now = Date.now();
    const justExpired = signedAssertionResponse(late, { notBefore: new Date(now - 5 * 60_000), notOnOrAfter: new Date(now - 30_000) });
    const justIssued = signedAssertionResponse(early, { notBefore: new Date(now + 30_000), notOnOrAfter: new Date(now + 5 * 60_000) });
    await expect(post(justExpired, late.relayState)).resolves.toMatchObject({ email: 'alice@example.com' });
    await expect(post(justIssued, early.relayState)).resolves.toMatchObject({ email: 'alice@example.com' });
  });
});

describe('SAML sign-in: signatures', () => {
  it('when nothing is signed, then it is refused', async () => {
    const started = await start();
    const f = responseFields(sp, idp, started.requestId);
    await expectRefused(post(responseXml(f, assertionXml(f)), started.relayState), 'saml_unsigned');
  });

  it('when the assertion is signed by another key (its certificate in KeyInfo), then it is refused', async () => {
    const started = await start();
    await expectRefused(post(signedAssertionResponse(started, {}, otherIdp), started.relayState), 'saml_unsigned');
  });

  it('when the response is signed by another key, then it is refused', async () => {
    const started = await start();
    const f = responseFields(sp, idp, started.requestId);
    await expectRefused(post(signResponse(responseXml(f, assertionXml(f)), otherIdp), started.relayState), 'saml_unsigned');
  });

  it('when a signed assertion is altered after signing (another NameID), then it is refused', async () => {
    const started = await start();
    const xml = signedAssertionResponse(started, { nameId: 'mallory@example.com' }).replace('mallory@example.com', 'admin@example.com');
    await expectRefused(post(xml, started.relayState), 'saml_unsigned');
  });
});

describe('SAML sign-in: signature wrapping never yields the evil identity', () => {
  /** The attacker's own valid assertion (signed by the IdP), and an evil one naming the victim. */
  function parts(started: SamlSignInStart) {
    const f = responseFields(sp, idp, started.requestId, { nameId: 'mallory@example.com' });
    const signed = signAssertion(assertionXml(f), idp);
    const evil = assertionXml({ ...f, nameId: 'admin@example.com', assertionId: newId() });
    return { f, signed, evil };
  }

  it.each([
    ['an unsigned evil assertion before the signed one', (p: ReturnType<typeof parts>) => responseXml(p.f, p.evil + p.signed)],
    ['an unsigned evil assertion after the signed one', (p: ReturnType<typeof parts>) => responseXml(p.f, p.signed + p.evil)],
    [
      'the signed assertion moved into an Extensions wrapper, the evil one in its place',
      (p: ReturnType<typeof parts>) => responseXml(p.f, `<samlp:Extensions>${p.signed}</samlp:Extensions>${p.evil}`),
    ],
    [
      "the signed assertion's Signature moved onto the evil assertion, the original inside its ds:Object",
      (p: ReturnType<typeof parts>) => {
        const signature = p.signed.slice(p.signed.indexOf('<Signature'), p.signed.indexOf('</Signature>') + '</Signature>'.length);
        const original = p.signed.replace(signature, '');
        const wrapped = signature.replace('</Signature>', `<Object>${original}</Object></Signature>`);
        return responseXml(p.f, p.evil.replace('</saml:Issuer>', `</saml:Issuer>${wrapped}`));
      },
    ],
    [
      "the evil assertion given the signed one's ID, the signed one beside it in Extensions",
      (p: ReturnType<typeof parts>) => {
        const id = p.f.assertionId;
        return responseXml(p.f, `<samlp:Extensions>${p.signed}</samlp:Extensions>${p.evil.replace(/ID="[^"]*"/, `ID="${id}"`)}`);
      },
    ],
  ])('when %s, then it is refused', async (_name, build) => {
    const started = await start();
    await expectRefused(post(build(parts(started)), started.relayState), 'saml_unsigned');
  });

  it('when a signed response gets an evil assertion injected beside its own, then it is refused', async () => {
    const started = await start();
    const f = responseFields(sp, idp, started.requestId, { nameId: 'mallory@example.com' });
    const signed = signResponse(responseXml(f, assertionXml(f)), idp);
    const evil = assertionXml({ ...f, nameId: 'admin@example.com', assertionId: newId() });
    await expectRefused(post(signed.replace('</samlp:Response>', `${evil}</samlp:Response>`), started.relayState), 'saml_unsigned');
  });

  it('when a signed response is wrapped inside an evil unsigned response, then it is refused', async () => {
    const started = await start();
    const f = responseFields(sp, idp, started.requestId, { nameId: 'mallory@example.com' });
    const signed = signResponse(responseXml(f, assertionXml(f)), idp);
    const evil = assertionXml({ ...f, nameId: 'admin@example.com', assertionId: newId() });
    const outer = responseXml({ ...f, responseId: newId() }, `<samlp:Extensions>${signed}</samlp:Extensions>${evil}`);
    await expectRefused(post(outer, started.relayState), 'saml_unsigned');
  });
});

describe('SAML sign-in: comment injection', () => {
  it('when a comment is slipped into a signed NameID, then the whole signed text is the email, never the part before the comment', async () => {
    const started = await start();
    const signed = signedAssertionResponse(started, { nameId: 'victim@example.com.evil.com' });
    const injected = signed.replace('victim@example.com.evil.com', 'victim@example.com<!---->.evil.com');
    expect(injected).toContain('<!---->');
    const outcome = await post(injected, started.relayState).then(
      (identity) => identity.email,
      (err: { code: string }) => err.code,
    );
    expect(outcome).not.toBe('victim@example.com');
    expect(['victim@example.com.evil.com', 'saml_unsigned', 'saml_invalid']).toContain(outcome);
  });
});

describe('SAML sign-in: audience, recipient, issuer, time', () => {
  it.each<[string, (s: SamlSignInStart) => Partial<ResponseFields>, string]>([
    ['the audience is another service provider', () => ({ audience: samlEntityIdOf(APP_URL, randomUUID()) }), 'saml_audience'],
    ['the Recipient is another ACS URL', () => ({ recipient: 'https://elsewhere.example.test/acs' }), 'saml_recipient'],
    ['the Recipient is missing', () => ({ recipient: null }), 'saml_recipient'],
    ['the Destination is another ACS URL', () => ({ destination: 'https://elsewhere.example.test/acs' }), 'saml_recipient'],
    ["the Issuer is not the workspace's IdP", () => ({ issuer: 'https://someone-else.example.test' }), 'saml_issuer'],
    [
      'NotOnOrAfter is past, beyond the skew',
      () => ({ notBefore: new Date(Date.now() - 10 * 60_000), notOnOrAfter: new Date(Date.now() - 2 * 60_000) }),
      'saml_expired',
    ],
    [
      'NotBefore is ahead, beyond the skew',
      () => ({ notBefore: new Date(Date.now() + 3 * 60_000), notOnOrAfter: new Date(Date.now() + 10 * 60_000) }),
      'saml_expired',
    ],
  ])('when %s, then it is refused', async (_name, over, code) => {
    const started = await start();
    await expectRefused(post(signedAssertionResponse(started, over(started)), started.relayState), code);
  });
});

describe('SAML sign-in: replay', () => {
  it('when the same post arrives twice, then the second is refused', async () => {
    const started = await start();
    const xml = signedAssertionResponse(started);
    await post(xml, started.relayState);
    await expectRefused(post(xml, started.relayState), 'saml_unsolicited');
  });

  it('when the same assertion id answers a second request, then the second is refused as a replay', async () => {
    const [first, second] = [await start(), await start()];
    // The IdP leaves InResponseTo out of SubjectConfirmationData: only the Response (unsigned) names the request.
    const f = responseFields(sp, idp, first.requestId, { subjectInResponseTo: null });
    const assertion = signAssertion(assertionXml(f), idp);
    await post(responseXml(f, assertion), first.relayState);
    await expectRefused(post(responseXml({ ...f, inResponseTo: second.requestId }, assertion), second.relayState), 'saml_replayed');
  });

  it('when the same response is posted twice at once, then exactly one signs in', async () => {
    const started = await start();
    const xml = signedAssertionResponse(started);
    const outcomes = await Promise.allSettled([post(xml, started.relayState), post(xml, started.relayState)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
  });
});

describe('SAML sign-in: unsolicited answers', () => {
  it('when the response has no InResponseTo (IdP-initiated), then it is refused', async () => {
    const started = await start();
    await expectRefused(post(signedAssertionResponse(null), started.relayState), 'saml_unsolicited');
  });

  it('when InResponseTo names no request of ours, then it is refused', async () => {
    const started = await start();
    await expectRefused(post(signedAssertionResponse({ ...started, requestId: newId() }), started.relayState), 'saml_unsolicited');
  });

  it('when the signed InResponseTo names another request than the Response does, then it is refused', async () => {
    const [first, second] = [await start(), await start()];
    const xml = signedAssertionResponse(first, { subjectInResponseTo: second.requestId });
    await expectRefused(post(xml, first.relayState), 'saml_unsolicited');
  });

  it('when the RelayState is unknown, missing, or of another request, then it is refused', async () => {
    const [first, second, third] = [await start(), await start(), await start()];
    await expectRefused(post(signedAssertionResponse(first), 'not-ours'), 'saml_unsolicited');
    await expectRefused(post(signedAssertionResponse(second), second.relayState.repeat(2) + 'x'.repeat(80)), 'saml_unsolicited');
    await expectRefused(post(signedAssertionResponse(third), first.relayState), 'saml_unsolicited');
  });

  it('when the request has expired, then its answer is refused', async () => {
    const started = await start();
    await knex()('saml_requests')
      .where({ id: started.requestId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await expectRefused(post(signedAssertionResponse(started), started.relayState), 'saml_unsolicited');
  });

  it("when the request was another workspace's, then the answer is checked against that workspace and refused", async () => {
    const otherOrg = randomUUID();
    configs.set(otherOrg, otherIdp.config);
    const started = await start(otherOrg);
    // Signed by our IdP for our audience, answering the other workspace's request.
    await expectRefused(post(signedAssertionResponse(started), started.relayState), 'saml_unsigned');
  });
});

describe('SAML sign-in: the IdP says no', () => {
  it('when the IdP answers with a failure status and no assertion, then it is refused as the IdP status', async () => {
    const started = await start();
    const f = responseFields(sp, idp, started.requestId);
    const failed = responseXml(f, '').replace(
      '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/>',
      '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder"><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode><samlp:StatusMessage>&lt;b&gt;no&lt;/b&gt;</samlp:StatusMessage>',
    );
    await expectRefused(post(failed, started.relayState), 'saml_idp_status');
  });
});

describe('SAML sign-in: hostile input', () => {
  it('when the SAMLResponse is over 128 KB, not base64, not XML, or has a DOCTYPE, then it is refused before any check', async () => {
    const started = await start();
    const relay = started.relayState;
    const doctype = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]>${signedAssertionResponse(started)}`;
    await expectRefused(
      completeSamlSignIn(knex(), {
        appUrl: APP_URL,
        body: { SAMLResponse: 'A'.repeat(SAML_POST_LIMITS.samlResponseChars + 4), RelayState: relay },
        idpConfigOf,
      }),
      'saml_invalid',
    );
    await expectRefused(
      completeSamlSignIn(knex(), { appUrl: APP_URL, body: { SAMLResponse: '<samlp:Response/>', RelayState: relay }, idpConfigOf }),
      'saml_invalid',
    );
    await expectRefused(post('not xml at all', relay), 'saml_invalid');
    await expectRefused(post(doctype, relay), 'saml_invalid');
    // None of these spent the request: the real answer still signs in.
    await expect(post(signedAssertionResponse(started), relay)).resolves.toMatchObject({ email: 'alice@example.com' });
  });
});
