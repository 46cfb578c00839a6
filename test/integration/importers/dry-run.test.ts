import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../../src/db/knex';
import { openOrm } from '../../../src/db/orm';
import { getEscalationPolicy, workspaceReadiness } from '../../../src/services/paging';
import { addUser, createOrganization } from '../../../src/services/workspace';
import { fixtureAccount as opsgenieAccount, startOpsgenieApi, type OpsgenieApiFake } from '../../../src/integrations/opsgenie/testing/wire-fake';
import { fixtureAccount, startPagerDutyApi, type PagerDutyApiFake } from '../../../src/integrations/pagerduty/testing/wire-fake';
import { counts, importWorkspace, mappedId, memberEmails, onCallEmails, runImport, workspaceRows, type SentMail } from '../../support/importers';

// A dry run reads the source and compares, and writes nothing: not even a mapping or an audit entry;
// and it plans what the real run then does, kind by kind, in a workspace where nobody of the account
// is a member yet as much as in one where most are. A person whose address has a Klaxon account
// outside the workspace is invited, never adopted.

let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
});
afterAll(async () => {
  await orm?.close();
});

/** Each test its own copy of an account (its own people and keys), served by its own fake. */
async function withFake<T>(system: 'pagerduty' | 'opsgenie', work: (source: { url: string; credential: string; domain: string }) => Promise<T>): Promise<T> {
  if (system === 'pagerduty') {
    const account = fixtureAccount();
    for (const service of account.services) for (const i of service.integrations) if (i.integration_key) i.integration_key = randomKey();
    const fake: PagerDutyApiFake = await startPagerDutyApi({ account });
    try {
      return await work({ url: fake.url, credential: fake.token, domain: account.domain! });
    } finally {
      await fake.stop();
    }
  }
  const account = opsgenieAccount();
  for (const i of account.integrations) if (i.apiKey) i.apiKey = crypto.randomUUID();
  const fake: OpsgenieApiFake = await startOpsgenieApi({ account });
  try {
    return await work({ url: fake.url, credential: fake.apiKey, domain: account.domain! });
  } finally {
    await fake.stop();
  }
}
const randomKey = () => crypto.randomUUID().replace(/-/g, '');

describe('dry runs', () => {
  it.each([
    ['pagerduty', 'most of its people members already', true],
    ['pagerduty', 'nobody of it a member yet', false],
    ['opsgenie', 'most of its people members already', true],
    ['opsgenie', 'nobody of it a member yet', false],
  ] as const)(
    'when %s is imported with --dry-run into a workspace with %s, then the plan is the real run’s, kind by kind, and nothing is written',
    async (system, _what, most) =>
      withFake(system, async (source) => {
        const { organizationId } = await importWorkspace(orm, { members: most ? memberEmails(source.domain) : [] });
        const before = await workspaceRows(orm, organizationId);
        const mails: SentMail[] = [];
        const plan = await runImport(orm, system, source, { organizationId, dryRun: true, mails });
        expect(await workspaceRows(orm, organizationId)).toEqual(before);
        expect(mails).toEqual([]);
        expect(await knexOf(orm)('users').where('email', 'like', `%@${source.domain}`)).toHaveLength(most ? 5 : 0);

        const done = await runImport(orm, system, source, { organizationId, mails });
        expect(plan.created).toEqual(done.created);
        expect(plan.updated).toEqual(done.updated);
        expect(plan.skipped).toEqual(done.skipped);
        // Schedules and policies are planned with the people they will hold, before those people exist.
        expect(plan.created.schedule).toBe(system === 'pagerduty' ? 2 : 3);
        expect(plan.created.escalation_policy).toBe(2);
        expect(plan.created.user).toBe(most ? 1 : 6);
        expect(mails).toHaveLength(most ? 1 : 6);
        // The same objects, with ids once they exist (people who were members have theirs in both).
        expect(plan.mapping.map(({ id: _id, ...m }) => m)).toEqual(done.mapping.map(({ id: _id, ...m }) => m));
        expect(plan.mapping.filter((m) => m.id)).toEqual(done.mapping.filter((m) => plan.mapping.some((p) => p.id === m.id && p.id !== null)));

        // After the real run, a dry run plans nothing new, and a real one makes nothing twice.
        const after = await workspaceRows(orm, organizationId);
        const replan = await runImport(orm, system, source, { organizationId, dryRun: true });
        expect(replan.created).toEqual(counts());
        expect(replan.updated).toEqual(counts());
        expect(replan.mapping).toEqual(done.mapping);
        const again = await runImport(orm, system, source, { organizationId, mails });
        expect(again.created).toEqual(counts());
        expect(await workspaceRows(orm, organizationId)).toEqual({ ...after, audit_log: after.audit_log + 1 });
      }),
  );
});

describe('a workspace nobody of the account has joined', () => {
  it('when PagerDuty is imported, then everyone is a member at once, on call as PagerDuty says, and every step and delay of the policy stays', () =>
    withFake('pagerduty', async (source) => {
      const { organizationId, admin } = await importWorkspace(orm, { members: [] });
      const done = await runImport(orm, 'pagerduty', source, { organizationId });
      expect(done.created).toMatchObject({ user: 6, schedule: 2, escalation_policy: 2, contact_method: 13, notification_rule: 10 });
      // Who is on call is the scheduled person, never the workspace's admin.
      const at = '2030-03-08T14:00:00Z';
      expect(await onCallEmails(orm, mappedId(done, 'schedule', 'PSCH001'), at)).toEqual([`dan@${source.domain}`]);
      expect(await onCallEmails(orm, mappedId(done, 'schedule', 'PSCH001'), at)).not.toContain(admin.email);
      const policy = await getEscalationPolicy(orm, mappedId(done, 'escalation_policy', 'PEP0001'), organizationId);
      expect(policy.steps.map((s) => [s.delay_seconds, s.targets.map((t) => t.type)])).toEqual([
        [900, ['schedule']],
        [1800, ['user', 'schedule']],
        [1200, ['user']],
      ]);
      // Their roles are PagerDuty's: owner/admin, a team's manager, users, an observer.
      const roles = await knexOf(orm)('memberships as m')
        .join('users as u', 'u.id', 'm.user_id')
        .where({ 'm.organization_id': organizationId })
        .whereNot('u.id', admin.id)
        .orderBy('u.email')
        .select('u.email', 'm.role');
      expect(roles.map((r) => [r.email.split('@')[0], r.role])).toEqual([
        ['alice', 'ACCOUNT_ADMIN'],
        ['bob', 'MEMBER'],
        ['carol', 'MEMBER'],
        ['dan', 'MEMBER'],
        ['erin', 'TEAM_MANAGER'],
        ['frank', 'STAKEHOLDER'],
      ]);
    }));

  it('when the plan’s user limit is reached on the way, then the dry run refuses the same people in the same words as the real run', () =>
    withFake('pagerduty', async (source) => {
      // FREE: 5 users; the workspace's admin takes one.
      const { organizationId } = await importWorkspace(orm, { members: [], plan: 'FREE' });
      const plan = await runImport(orm, 'pagerduty', source, { organizationId, dryRun: true });
      const done = await runImport(orm, 'pagerduty', source, { organizationId });
      expect(plan.created.user).toBe(4);
      expect(done.created.user).toBe(4);
      const refused = (r: typeof plan) => r.skipped.filter((s) => s.kind === 'user');
      expect(refused(plan)).toEqual(refused(done));
      expect(refused(done).map((s) => s.why)).toEqual([
        'Klaxon refused it: the FREE plan allows 5 users; this workspace has 5 member(s) and 0 pending invitation(s) (revoke one, or change the plan)',
        'Klaxon refused it: the FREE plan allows 5 users; this workspace has 5 member(s) and 0 pending invitation(s) (revoke one, or change the plan)',
      ]);
    }));

  it('when a person is already a member, then they keep their role whatever the source says', () =>
    withFake('pagerduty', async (source) => {
      const { organizationId, members } = await importWorkspace(orm, { members: [`alice@${source.domain}`] });
      await knexOf(orm)('memberships')
        .where({ organization_id: organizationId, user_id: members.get(`alice@${source.domain}`) })
        .update({ role: 'MEMBER' });
      await runImport(orm, 'pagerduty', source, { organizationId });
      const alice = await knexOf(orm)('memberships')
        .where({ organization_id: organizationId, user_id: members.get(`alice@${source.domain}`) })
        .first();
      expect(alice.role).toBe('MEMBER');
    }));
});

describe('an address with a Klaxon account in another workspace', () => {
  it('when it is imported, then it is invited (never adopted), reported with why, and left out of its rotation, step and team', () =>
    withFake('pagerduty', async (source) => {
      // Bob works in another workspace of Klaxon already.
      const elsewhere = await createOrganization(orm, { name: 'Elsewhere', plan: 'BUSINESS' });
      const bob = await addUser(orm, {
        organizationId: elsewhere.id,
        email: `bob@${source.domain}`,
        password: 'a long password',
        role: 'MEMBER',
        verified: true,
      });
      const { organizationId } = await importWorkspace(orm, { members: [] });
      const mails: SentMail[] = [];
      const plan = await runImport(orm, 'pagerduty', source, { organizationId, dryRun: true });
      const done = await runImport(orm, 'pagerduty', source, { organizationId, mails });
      expect(plan.skipped).toEqual(done.skipped);
      expect(done.created.user).toBe(5);
      expect(done.skipped).toContainEqual({
        kind: 'user',
        external_id: 'PB0B000',
        name: 'Bob Baker',
        why: expect.stringMatching(/already has a Klaxon account outside this workspace.*invited as MEMBER/),
      });
      expect(done.mapping).toContainEqual({ kind: 'user', external_id: 'PB0B000', id: null, name: 'Bob Baker' });
      expect(await knexOf(orm)('memberships').where({ organization_id: organizationId, user_id: bob.id })).toEqual([]);
      expect(await knexOf(orm)('invitations').where({ organization_id: organizationId }).select('email', 'role')).toEqual([
        { email: `bob@${source.domain}`, role: 'MEMBER' },
      ]);
      expect(mails.filter((m) => m.to === `bob@${source.domain}`).map((m) => m.subject)).toEqual([expect.stringMatching(/^You are invited to /)]);
      expect(done.skipped).toContainEqual(
        expect.objectContaining({
          kind: 'schedule',
          external_id: 'PSCH001/PL1A001',
          why: expect.stringMatching(/left out of the rotation: bob@.* is invited/),
        }),
      );
      expect(await knexOf(orm)('import_left_out').where({ organization_id: organizationId }).orderBy('place').pluck('place')).toEqual([
        'step 2 of "Platform EP"',
        'the rotation "Payments Nights / Days"',
        'the rotation "Platform Primary / Around the clock"',
      ]);
      // His contact methods wait for him too.
      expect(await knexOf(orm)('contact_methods').where({ user_id: bob.id })).toEqual([]);

      // Readiness shows the gap he leaves, until he is a member.
      const invitedGaps = async () => (await workspaceReadiness(orm, { organizationId })).gaps.filter((g) => g.kind === 'invited_not_member');
      expect((await invitedGaps()).map((g) => [g.schedule_id ?? g.policy_id, g.detail])).toEqual([
        [
          mappedId(done, 'escalation_policy', 'PEP0001'),
          expect.stringMatching(/^bob@.* is missing from step 2 of "Platform EP": their Klaxon account is outside/),
        ],
        [mappedId(done, 'schedule', 'PSCH002'), expect.stringMatching(/is missing from the rotation "Payments Nights \/ Days"/)],
        [mappedId(done, 'schedule', 'PSCH001'), expect.stringMatching(/is missing from the rotation "Platform Primary \/ Around the clock"/)],
      ]);
      await addUser(orm, { organizationId, email: `bob@${source.domain}`, password: 'a long password', role: 'MEMBER', verified: true });
      expect(await invitedGaps()).toEqual([]);
    }));
});

describe('routing keys', () => {
  it('when another workspace imported the account already, then its keys are taken there and its sources are reported here', () =>
    withFake('pagerduty', async (source) => {
      const one = await importWorkspace(orm, { members: memberEmails(source.domain) });
      const two = await importWorkspace(orm, { members: memberEmails(source.domain) });
      await runImport(orm, 'pagerduty', source, { organizationId: one.organizationId });
      const second = await runImport(orm, 'pagerduty', source, { organizationId: two.organizationId });
      expect(second.created.source).toBe(0);
      expect(
        second.skipped
          .filter((s) => s.kind === 'source' && /already has its key/.test(s.why))
          .map((s) => s.external_id)
          .sort(),
      ).toEqual(['PINT001', 'PINT003']);
    }));
});
