import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../../src/db/knex';
import { openOrm } from '../../../src/db/orm';
import { addUser } from '../../../src/services/workspace';
import { startOpsgenieApi, type OpsgenieApiFake } from '../../fakes/opsgenie-api';
import { fixtureAccount, startPagerDutyApi, type PagerDutyApiFake } from '../../fakes/pagerduty-api';
import { importWorkspace, runImport, workspaceRows, type SentMail } from '../../support/importers';

// A dry run reads the source and compares, and writes nothing: not even a mapping or an audit entry.
// And an import into a workspace nobody has joined yet: everyone is invited, rotations wait for them.

let orm: MikroORM;
let pd: PagerDutyApiFake;
let og: OpsgenieApiFake;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
  [pd, og] = await Promise.all([startPagerDutyApi(), startOpsgenieApi()]);
});
afterAll(async () => {
  await Promise.all([pd?.stop(), og?.stop()]);
  await orm?.close();
});

const devInboxRows = async () => Number((await knexOf(orm)('dev_deliveries').count({ n: '*' }))[0].n);

describe('dry runs', () => {
  it.each([
    ['pagerduty', () => ({ url: pd.url, credential: pd.token })],
    ['opsgenie', () => ({ url: og.url, credential: og.apiKey })],
  ] as const)('when %s is imported with --dry-run, then the report is the real run’s and nothing is written', async (system, source) => {
    const { organizationId } = await importWorkspace(orm);
    const before = await workspaceRows(orm, organizationId);
    const mails: SentMail[] = [];
    const plan = await runImport(orm, system, source(), { organizationId, dryRun: true, mails });
    expect(await workspaceRows(orm, organizationId)).toEqual(before);
    expect(mails).toEqual([]);
    const done = await runImport(orm, system, source(), { organizationId, mails });
    expect(plan.created).toEqual(done.created);
    expect(plan.updated).toEqual(done.updated);
    expect(plan.skipped).toEqual(done.skipped);
    // The same objects, with ids once they exist (people already members have theirs in both).
    expect(plan.mapping.map(({ id: _id, ...m }) => m)).toEqual(done.mapping.map(({ id: _id, ...m }) => m));
    expect(plan.mapping.filter((m) => m.kind === 'user' && m.id)).toEqual(done.mapping.filter((m) => m.kind === 'user' && m.id));

    // After the real run, a dry run plans nothing new.
    const after = await workspaceRows(orm, organizationId);
    const replan = await runImport(orm, system, source(), { organizationId, dryRun: true });
    expect(replan.created).toEqual({ user: 0, team: 0, schedule: 0, escalation_policy: 0, service: 0, source: 0 });
    expect(replan.updated).toEqual({ user: 0, team: 0, schedule: 0, escalation_policy: 0, service: 0, source: 0 });
    expect(replan.mapping).toEqual(done.mapping);
    expect(await workspaceRows(orm, organizationId)).toEqual(after);
  });
});

describe('routing keys', () => {
  it('when another workspace imported the account already, then its keys are taken there and its sources are reported here', async () => {
    const one = await importWorkspace(orm);
    const two = await importWorkspace(orm);
    const source = { url: pd.url, credential: pd.token };
    await runImport(orm, 'pagerduty', source, { organizationId: one.organizationId });
    const second = await runImport(orm, 'pagerduty', source, { organizationId: two.organizationId });
    expect(second.created.source).toBe(0);
    expect(
      second.skipped
        .filter((s) => s.kind === 'source' && /already has its key/.test(s.why))
        .map((s) => s.external_id)
        .sort(),
    ).toEqual(['PINT001', 'PINT003']);
  });
});

describe('people who are not members yet', () => {
  it('when nobody has joined, then all are invited, rotations wait with why, and a re-run after they join brings the schedules in', async () => {
    // Its own copy of the account, with keys no other test imported.
    const account = fixtureAccount();
    for (const service of account.services) for (const i of service.integrations) if (i.integration_key) i.integration_key = randomBytes(16).toString('hex');
    const own = await startPagerDutyApi({ account });
    try {
      await invitedThenJoined(own);
    } finally {
      await own.stop();
    }
  });
});

/** Imports into a workspace nobody joined, then again, then again once they joined. */
async function invitedThenJoined(pd: PagerDutyApiFake): Promise<void> {
  const { organizationId } = await importWorkspace(orm, { members: [] });
  const inboxBefore = await devInboxRows();
  const mails: SentMail[] = [];
  const first = await runImport(orm, 'pagerduty', { url: pd.url, credential: pd.token }, { organizationId, mails });
  expect(first.created.user).toBe(6);
  expect(mails.map((m) => m.to).sort()).toEqual(['alice', 'bob', 'carol', 'dan', 'erin', 'frank'].map((n) => `${n}@example.com`));
  expect(first.created.schedule).toBe(0);
  expect(first.skipped).toContainEqual(
    expect.objectContaining({ kind: 'schedule', external_id: 'PSCH001/PL1A001', why: expect.stringMatching(/alice@example.com, bob@example.com invited/) }),
  );
  expect(first.skipped).toContainEqual(
    expect.objectContaining({ kind: 'escalation_policy', external_id: 'PEP0001', why: expect.stringMatching(/none of its steps/) }),
  );
  // Services and their sources do not wait for people.
  expect(first.created).toMatchObject({ team: 2, service: 3, source: 2 });
  expect(await devInboxRows()).toBe(inboxBefore);

  // A re-run invites nobody twice.
  const again = await runImport(orm, 'pagerduty', { url: pd.url, credential: pd.token }, { organizationId, mails });
  expect(again.created.user).toBe(0);
  expect(mails).toHaveLength(6);

  // They join (as accepting their invitations does); the next import puts them in the rotations and teams.
  for (const name of ['alice', 'bob', 'carol', 'dan', 'erin']) {
    await addUser(orm, { organizationId, email: `${name}@example.com`, password: 'a long password', role: 'MEMBER', verified: true });
  }
  const joined = await runImport(orm, 'pagerduty', { url: pd.url, credential: pd.token }, { organizationId, mails });
  expect(joined.created).toMatchObject({ user: 0, schedule: 2, escalation_policy: 2, team: 0, service: 0, source: 0 });
  expect(joined.updated).toMatchObject({ team: 2, service: 3 });
}
