import { openOrm, type MikroORM } from '../../../src/db/orm';
import { knexOf } from '../../../src/db/knex';
import { createSource, findActiveSource, findSourceByRoutingKey, rotateSource } from '../../../src/services/ingest/sources';
import { klaxon } from '../../support/cli';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

let orm: MikroORM;
let ws: SeededWorkspace;
const BASE = 'https://ingest.klaxon.test';
const secretOf = (url: string) => url.slice(BASE.length + 1);

beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 2);
  ws = await seedWorkspace(orm);
});
afterAll(() => orm.close());

describe('alert sources', () => {
  it('when a source is created, then only the hash of its secret is stored and the secret finds it', async () => {
    const src = await createSource(orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name: 'prometheus', ingestBaseUrl: BASE });
    const secret = secretOf(src.ingest_url);
    const row = await knexOf(orm)('alert_sources').where({ id: src.id }).first();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(await findActiveSource(orm, secret)).toEqual({ id: src.id, organizationId: ws.organizationId, serviceId: ws.serviceId });
    expect(await findActiveSource(orm, secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A'))).toBeUndefined();
    expect(await findActiveSource(orm, 'short')).toBeUndefined();
  });

  it('when a source is rotated, then the old secret and routing key stop matching at once and the new ones match', async () => {
    const src = await createSource(orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name: 'grafana', ingestBaseUrl: BASE });
    const rotated = await rotateSource(orm, { sourceId: src.id, ingestBaseUrl: BASE });
    expect(rotated.id).toBe(src.id);
    expect(rotated.ingest_url).not.toBe(src.ingest_url);
    expect(rotated.routing_key).toMatch(/^[0-9a-f]{32}$/);
    expect(rotated.routing_key).not.toBe(src.routing_key);
    expect(await findActiveSource(orm, secretOf(src.ingest_url))).toBeUndefined();
    expect((await findActiveSource(orm, secretOf(rotated.ingest_url)))?.id).toBe(src.id);
    expect(await findSourceByRoutingKey(orm, src.routing_key)).toBeUndefined();
    expect((await findSourceByRoutingKey(orm, rotated.routing_key))?.id).toBe(src.id);
  });

  it('when a source is revoked, then its secret no longer matches and it cannot be rotated', async () => {
    const src = await createSource(orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name: 'old', ingestBaseUrl: BASE });
    await knexOf(orm)('alert_sources').update({ status: 'REVOKED', revoked_at: new Date() }).where({ id: src.id });
    expect(await findActiveSource(orm, secretOf(src.ingest_url))).toBeUndefined();
    await expect(rotateSource(orm, { sourceId: src.id, ingestBaseUrl: BASE })).rejects.toThrow(/not found/);
  });

  it('when the CLI creates and rotates a source, then it prints the URLs under INGEST_URL and the routing keys, and refuses bad ids', async () => {
    const created = await klaxon(['source', 'create', '--service', ws.serviceId, '--name', 'cli source', '--json'], { INGEST_URL: BASE });
    expect(created.code).toBe(0);
    expect(created.json).toEqual({
      id: expect.any(String),
      name: 'cli source',
      service_id: ws.serviceId,
      ingest_url: expect.stringMatching(new RegExp(`^${BASE}/[A-Za-z0-9_-]{32}$`)),
      routing_key: expect.stringMatching(/^[0-9a-f]{32}$/),
      channels: null,
    });
    const rotated = await klaxon(['source', 'rotate', created.json.id, '--json'], { INGEST_URL: BASE });
    expect(rotated.json).toEqual({
      id: created.json.id,
      name: 'cli source',
      service_id: ws.serviceId,
      ingest_url: expect.stringMatching(new RegExp(`^${BASE}/[A-Za-z0-9_-]{32}$`)),
      routing_key: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(rotated.json.ingest_url).not.toBe(created.json.ingest_url);
    expect(rotated.json.routing_key).not.toBe(created.json.routing_key);
    // Sealed as the dashboard seals it, so the dashboard still shows the rotated URL.
    expect((await knexOf(orm)('alert_sources').where({ id: created.json.id }).first()).url_secret_sealed).toEqual(expect.any(String));
    expect(await findActiveSource(orm, secretOf(created.json.ingest_url))).toBeUndefined();
    const bad = await klaxon(['source', 'create', '--service', 'nope', '--name', 'x', '--json']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--service: must be a service id/);
  });

  it('when the CLI creates a Form B source with channels, then they are stored normalised; an unknown one is refused and nothing is stored', async () => {
    const created = await klaxon(['source', 'create', '--service', ws.serviceId, '--name', 'form b', '--channels', 'SMS, CALL,email,push_notif', '--json'], {
      INGEST_URL: BASE,
    });
    expect(created.code).toBe(0);
    expect(created.json.channels).toEqual(['sms', 'voice', 'email', 'push']);
    const stored = await knexOf(orm)('alert_sources').select('channels').where({ id: created.json.id }).first();
    expect(stored.channels).toEqual(['sms', 'voice', 'email', 'push']);
    const bad = await klaxon(['source', 'create', '--service', ws.serviceId, '--name', 'bad channels', '--channels', 'sms,fax', '--json']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('channels: unknown channel "fax"; use sms, voice, email or push');
    expect(await knexOf(orm)('alert_sources').where({ name: 'bad channels' })).toHaveLength(0);
  });
});
