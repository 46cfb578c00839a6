import { openOrm, type MikroORM } from '../../../src/db/orm';
import { knexOf } from '../../../src/db/knex';
import { authenticateApiKey } from '../../../src/services/workspace/api-keys';
import { klaxon } from '../../support/cli';
import { addMember, seedWorkspace, type SeededWorkspace } from '../../support/workspace';

// `klaxon apikey create|list|revoke` (docs/architecture.md, "Workspaces, roles and credentials"), against the test database.
let orm: MikroORM;
let ws: SeededWorkspace;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 2);
  ws = await seedWorkspace(orm);
});
afterAll(() => orm.close());

describe('klaxon apikey', () => {
  it('when a key is created, then its plaintext is printed once, only its hash is stored, list shows metadata, and revoke ends it', async () => {
    const member = await addMember(orm, ws.organizationId, 'MEMBER');
    const created = await klaxon(['apikey', 'create', '--org', ws.organizationId, '--user', member.email, '--name', 'CI pipeline', '--json']);
    expect(created.code).toBe(0);
    expect(created.json).toEqual({ id: expect.any(String), key: expect.stringMatching(/^klxk_[A-Za-z0-9_-]{43}$/), name: 'CI pipeline' });
    const row = await knexOf(orm)('api_keys').where({ id: created.json.id }).first();
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(created.json.key);
    expect(await authenticateApiKey(orm, created.json.key)).toMatchObject({ organizationId: ws.organizationId, userId: member.id, role: 'MEMBER' });

    const list = await klaxon(['apikey', 'list', '--org', ws.organizationId, '--json']);
    expect(list.code).toBe(0);
    const listed = list.json.api_keys.find((k: { id: string }) => k.id === created.json.id);
    expect(listed).toMatchObject({ name: 'CI pipeline', status: 'active', user: { id: member.id, email: member.email }, last_used_at: expect.any(String) });
    expect(list.stdout).not.toContain(created.json.key);
    expect(list.stdout).not.toContain(row.key_hash);

    const revoked = await klaxon(['apikey', 'revoke', created.json.id, '--json']);
    expect(revoked.json).toEqual({ id: created.json.id, revoked: true });
    expect(await authenticateApiKey(orm, created.json.key)).toBeUndefined();
    const after = await klaxon(['apikey', 'list', '--org', ws.organizationId, '--json']);
    expect(after.json.api_keys.find((k: { id: string }) => k.id === created.json.id).status).toBe('revoked');
  });

  it('when the options are wrong, then a clear error and no key is created', async () => {
    const before = Number((await knexOf(orm)('api_keys').count({ n: '*' }))[0].n);
    const notMember = await klaxon(['apikey', 'create', '--org', ws.organizationId, '--user', 'nobody@example.test', '--json']);
    expect(notMember.code).not.toBe(0);
    expect(notMember.stderr).toMatch(/not a member/);
    const badOrg = await klaxon(['apikey', 'create', '--org', 'acme', '--user', ws.admin.email, '--json']);
    expect(badOrg.code).not.toBe(0);
    expect(badOrg.stderr).toMatch(/--org: must be a workspace id/);
    const unknown = await klaxon(['apikey', 'revoke', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/not found/);
    expect(Number((await knexOf(orm)('api_keys').count({ n: '*' }))[0].n)).toBe(before);
  });
});
