import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../../src/db/knex';
import { openOrm, type MikroORM } from '../../../../src/db/orm';
import { consumeAssertionId } from '../../../../src/services/sso/saml/assertion-replay';
import { claimSamlRequest, SamlRequestCache } from '../../../../src/services/sso/saml/request-cache';

/** The two SAML tables on their own: node-saml's request cache, the claim, the one-time assertion ids, and their purges. */
let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 2);
});
afterAll(() => orm.close());
const knex = () => knexOf(orm);
const MINUTE = 60_000;

describe('saml_requests', () => {
  it("when a request is saved through a workspace's cache, then only that workspace's cache reads it, and removing it spends it", async () => {
    const [org, other] = [randomUUID(), randomUUID()];
    const cache = new SamlRequestCache(knex(), { organizationId: org, relayState: 'relay-1' });
    const issued = new Date().toISOString();
    await cache.saveAsync('_req1', issued);
    expect(await cache.getAsync('_req1')).toBe(issued);
    expect(await new SamlRequestCache(knex(), { organizationId: other, relayState: 'relay-1' }).getAsync('_req1')).toBeNull();
    expect(await cache.removeAsync('_req1')).toBe('_req1');
    expect(await cache.getAsync('_req1')).toBeNull();
    expect(await cache.removeAsync('_req1')).toBeNull();
  });

  it('when a request is past its 10 minutes, then it is neither read nor claimed, and the next save purges it', async () => {
    const org = randomUUID();
    const cache = new SamlRequestCache(knex(), { organizationId: org, relayState: 'r' });
    await cache.saveAsync('_old', new Date().toISOString());
    const later = new Date(Date.now() + 11 * MINUTE);
    expect(await new SamlRequestCache(knex(), { organizationId: org, relayState: 'r' }, () => later).getAsync('_old')).toBeNull();
    expect(await claimSamlRequest(knex(), '_old', later)).toBeNull();
    await new SamlRequestCache(knex(), { organizationId: org, relayState: 'r' }, () => later).saveAsync('_new', later.toISOString());
    expect(await knex()('saml_requests').where({ id: '_old' }).first()).toBeUndefined();
  });

  it('when two answers claim one request at once, then one gets it', async () => {
    const org = randomUUID();
    await new SamlRequestCache(knex(), { organizationId: org, relayState: 'r' }).saveAsync('_race', new Date().toISOString());
    const claims = await Promise.all([claimSamlRequest(knex(), '_race'), claimSamlRequest(knex(), '_race')]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(claims.find(Boolean)).toMatchObject({ id: '_race', organizationId: org, relayState: 'r' });
  });
});

describe('saml_consumed_assertions', () => {
  it('when an assertion id is consumed twice in one workspace, then the second is refused; another workspace has its own ids', async () => {
    const [org, other] = [randomUUID(), randomUUID()];
    const use = { organizationId: org, assertionId: '_a1', expiresAt: new Date(Date.now() + 5 * MINUTE) };
    expect(await consumeAssertionId(knex(), use)).toBe(true);
    expect(await consumeAssertionId(knex(), use)).toBe(false);
    expect(await consumeAssertionId(knex(), { ...use, organizationId: other })).toBe(true);
  });

  it('when used ids are past their expiry, then the next use purges them', async () => {
    const org = randomUUID();
    await consumeAssertionId(knex(), { organizationId: org, assertionId: '_gone', expiresAt: new Date(Date.now() + MINUTE) });
    const later = new Date(Date.now() + 2 * MINUTE);
    await consumeAssertionId(knex(), { organizationId: org, assertionId: '_next', expiresAt: new Date(later.getTime() + MINUTE) }, later);
    expect(await knex()('saml_consumed_assertions').where({ organization_id: org }).pluck('assertion_id')).toEqual(['_next']);
  });
});
