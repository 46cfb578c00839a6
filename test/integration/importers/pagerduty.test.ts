import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ImportReport } from '../../../src/domain/importers/plan';
import { knexOf } from '../../../src/db/knex';
import { openOrm } from '../../../src/db/orm';
import { getEscalationPolicy, notificationRulesFor } from '../../../src/services/paging';
import { getServiceDetail } from '../../../src/services/workspace';
import { startPagerDutyApi, type PagerDutyApiFake } from '../../../src/integrations/pagerduty/testing/wire-fake';
import {
  counts,
  fixtureEmail,
  importWorkspace,
  mappedId,
  memberEmails,
  onCallEmails,
  runImport,
  tablesHolding,
  workspaceRows,
  type SentMail,
} from '../../support/importers';

// A PagerDuty account (src/integrations/pagerduty/testing/fixtures, served by a wire fake with two items a page) is
// imported into a workspace where five of its six people are members already; Frank, an
// observer, is new: the import makes him a member (a Stakeholder) at once.

const expected = JSON.parse(readFileSync(path.resolve(__dirname, '../../../src/integrations/pagerduty/testing/fixtures/expected-oncall.json'), 'utf8')) as {
  answers: Array<{ schedule: string; at: string; why: string; users: string[] }>;
};

let orm: MikroORM;
let fake: PagerDutyApiFake;
let organizationId: string;
let report: ImportReport;
const mails: SentMail[] = [];
const email = (name: string) => `${name}@${fake.account.domain}`;
const userId = async (name: string) =>
  (
    await knexOf(orm)('users')
      .where({ email: email(name) })
      .first('id')
  ).id as string;

beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
  fake = await startPagerDutyApi();
  ({ organizationId } = await importWorkspace(orm, { members: memberEmails(fake.account.domain!) }));
  report = await runImport(orm, 'pagerduty', { url: fake.url, credential: fake.token }, { organizationId, mails });
});
afterAll(async () => {
  await fake?.stop();
  await orm?.close();
});

describe('import from PagerDuty', () => {
  it('when the account is imported, then each kind is created once and every object is in the mapping', () => {
    expect(report.created).toEqual(
      counts({ user: 1, contact_method: 13, notification_rule: 10, team: 2, schedule: 2, escalation_policy: 2, service: 3, source: 2 }),
    );
    expect(report.updated).toEqual(counts());
    for (const [kind, id] of [
      ['user', 'PAL1CE0'],
      ['user', 'PFRANK0'],
      ['contact_method', 'PB0B000/PBC0002'],
      ['notification_rule', 'PB0B000/PBR0002'],
      ['team', 'PT4M001'],
      ['schedule', 'PSCH001'],
      ['schedule', 'PSCH002'],
      ['escalation_policy', 'PEP0001'],
      ['service', 'PSVC003'],
      ['source', 'PINT003'],
    ]) {
      expect(mappedId(report, kind, id)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('when lists are longer than a page, then every page was read with the documented headers, users with their contact methods and rules', () => {
    // Six users at two a page: three requests, offsets 0, 2, 4.
    expect(fake.requestsTo('/users').map((r) => r.query.offset)).toEqual([['0'], ['2'], ['4']]);
    expect(fake.requestsTo('/users')[0].query['include[]']).toEqual(['contact_methods', 'notification_rules']);
    expect(fake.requests.every((r) => r.authorized && r.accept === 'application/vnd.pagerduty+json;version=2')).toBe(true);
    expect(fake.requestsTo('/services')[0].query['include[]']).toEqual(['integrations']);
    // The list gave them in full: no request per user.
    expect(fake.requests.filter((r) => r.path.startsWith('/users/'))).toEqual([]);
  });

  it('when a person is not a member yet, then they are one at once with the role PagerDuty gave them and a welcome email, never an invitation', async () => {
    const frank = await knexOf(orm)('users as u')
      .join('memberships as m', 'm.user_id', 'u.id')
      .where({ 'u.email': email('frank'), 'm.organization_id': organizationId })
      .first('u.id', 'u.name', 'u.password_hash', 'u.verified', 'm.role');
    expect(frank).toEqual({ id: mappedId(report, 'user', 'PFRANK0'), name: 'Frank Fisher', password_hash: null, verified: true, role: 'STAKEHOLDER' });
    expect(await knexOf(orm)('invitations').where({ organization_id: organizationId })).toEqual([]);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[email('frank'), expect.stringMatching(/^You are a member of Import /)]]);
    expect(mails[0].text).toMatch(/a Stakeholder.*never paged/);
    expect(mails[0].text).toContain('http://app.test/reset-password');
    expect(mails[0].text).not.toMatch(/token=/);
    const audit = await knexOf(orm)('audit_log').where({ organization_id: organizationId, action: 'member.provision', target_id: frank.id }).first();
    expect(audit).toMatchObject({ actor_kind: 'system', details: { email: email('frank'), role: 'STAKEHOLDER', from: 'PagerDuty' } });
    // A Stakeholder is never paged: his contact methods and rules stay out, with why.
    expect(report.skipped).toContainEqual(
      expect.objectContaining({ kind: 'contact_method', external_id: 'PFRANK0/PFC0002', why: expect.stringMatching(/Stakeholder/) }),
    );
  });

  it('when contact methods and high-urgency rules are imported, then they page at once, marked as imported, on the numbers PagerDuty had', async () => {
    const bob = await userId('bob');
    const [rules] = await notificationRulesFor(orm, [bob], { organizationId });
    expect(rules.rules.map((r) => [r.type, r.address, r.delaySeconds])).toEqual([
      ['sms', '+12025550102', 0],
      ['voice', '+12025550102', 180],
    ]);
    const methods = await knexOf(orm)('contact_methods').where({ user_id: bob, organization_id: organizationId }).orderBy('type');
    expect(methods.map((m) => [m.type, m.address, m.source, m.verified_at !== null, m.verification_code_hash])).toEqual([
      ['email', `bob@${fake.account.domain}`, 'import', true, null],
      ['sms', '+12025550102', 'import', true, null],
      ['voice', '+12025550102', 'import', true, null],
    ]);
    const why = (id: string) => report.skipped.filter((s) => s.external_id === id).map((s) => s.why);
    expect(why('PB0B000/PBC0004')).toEqual([expect.stringMatching(/push to PagerDuty's mobile app/)]);
    expect(why('PB0B000/PBR0001')).toEqual([expect.stringMatching(/contact method PBC0004 was not brought in/)]);
    expect(why('PCAR0L0/PCC0003')).toEqual([expect.stringMatching(/blacklisted/)]);
    expect(why('PAL1CE0/PAR0004')).toEqual([expect.stringMatching(/low-urgency rule/)]);
    // A number outside North America keeps its country code.
    expect((await notificationRulesFor(orm, [await userId('dan')], { organizationId }))[0].rules.map((r) => r.address)).toEqual(['+4915123456701']);
  });

  it.each(expected.answers.map((a) => [a.schedule, a.at, a.why, a.users] as const))(
    'when %s is asked who is on call at %s (%s), then Klaxon answers as PagerDuty',
    async (schedule, at, _why, users) => {
      expect(await onCallEmails(orm, mappedId(report, 'schedule', schedule), at)).toEqual(users.map((u) => fixtureEmail(u, fake.account.domain!)));
    },
  );

  it('when a future override is imported, then its person is on call during it and not after', async () => {
    const override = fake.account.overrides.PSCH001[0];
    const scheduleId = mappedId(report, 'schedule', 'PSCH001');
    const middle = new Date((Date.parse(override.start) + Date.parse(override.end)) / 2).toISOString();
    expect(await onCallEmails(orm, scheduleId, middle)).toEqual([email('erin')]);
    expect(await onCallEmails(orm, scheduleId, override.end)).not.toEqual([email('erin')]);
  });

  it('when policies are imported, then their rules are steps with the same delays, targets and loops', async () => {
    const platform = await getEscalationPolicy(orm, mappedId(report, 'escalation_policy', 'PEP0001'), organizationId);
    expect(platform).toMatchObject({
      name: 'Platform EP',
      repeat: 2,
      steps: [
        { delay_seconds: 900, targets: [{ type: 'schedule', id: mappedId(report, 'schedule', 'PSCH001') }] },
        {
          delay_seconds: 1800,
          targets: [
            { type: 'user', id: await userId('bob') },
            { type: 'schedule', id: mappedId(report, 'schedule', 'PSCH002') },
          ],
        },
        { delay_seconds: 1200, targets: [{ type: 'user', id: await userId('alice') }] },
      ],
    });
    // Its second rule pages the legacy rota, which could not come: the step is left out and said so.
    const payments = await getEscalationPolicy(orm, mappedId(report, 'escalation_policy', 'PEP0002'), organizationId);
    expect(payments.steps).toEqual([{ delay_seconds: 600, targets: [{ type: 'schedule', id: mappedId(report, 'schedule', 'PSCH002') }] }]);
  });

  it('when services are imported, then each has its policy and team, and its Events API v2 key is its source routing key', async () => {
    const checkout = await getServiceDetail(orm, organizationId, mappedId(report, 'service', 'PSVC001'));
    expect(checkout).toMatchObject({
      name: 'Checkout API',
      owning_team_id: mappedId(report, 'team', 'PT4M002'),
      escalation_policy_id: mappedId(report, 'escalation_policy', 'PEP0002'),
    });
    // No team of its own: its policy's team owns it.
    const web = await getServiceDetail(orm, organizationId, mappedId(report, 'service', 'PSVC002'));
    expect(web.owning_team_id).toBe(mappedId(report, 'team', 'PT4M001'));
    const source = await knexOf(orm)('alert_sources')
      .where({ id: mappedId(report, 'source', 'PINT001') })
      .first();
    expect(source).toMatchObject({ service_id: checkout.id, routing_key: 'c0ffee00c0ffee00c0ffee00c0ffee01', status: 'ACTIVE' });
  });

  it('when something cannot be mapped, then it is in skipped with why, never dropped', () => {
    const why = (id: string) => report.skipped.filter((s) => s.external_id === id).map((s) => s.why);
    expect(why('PSCH003/PL3A001')).toEqual([expect.stringMatching(/turn length of 5400 s is not a whole number of hours/)]);
    expect(why('PSCH003/PL3B002')).toEqual([expect.stringMatching(/09:00:30.*on the minute/)]);
    expect(why('PSCH003')).toEqual([expect.stringMatching(/none of its layers/)]);
    expect(why('PSCH002/PL2C003')).toEqual([expect.stringMatching(/ended at 2026-06-01/)]);
    expect(why('PEP0002/PANZZET/PSCH003')).toEqual([expect.stringMatching(/schedule PSCH003 was not brought in/)]);
    expect(why('PINT002')).toEqual([expect.stringMatching(/generic_email_inbound_integration/)]);
  });

  it('when the same account is imported again, then nothing is created or changed and nobody is emailed twice', async () => {
    const before = await workspaceRows(orm, organizationId);
    const again = await runImport(orm, 'pagerduty', { url: fake.url, credential: fake.token }, { organizationId, mails });
    expect(again.created).toEqual(counts());
    expect(again.updated).toEqual(counts());
    expect(again.mapping).toEqual(report.mapping);
    // One audit entry for the run itself; nothing else written.
    expect(await workspaceRows(orm, organizationId)).toEqual({ ...before, audit_log: before.audit_log + 1 });
    expect(mails).toHaveLength(1);
  });

  it('when the source changed a name and a number, then a re-run updates those objects only', async () => {
    const service = fake.account.services.find((s) => s.id === 'PSVC003')!;
    const sms = fake.account.users.find((u) => u.id === 'PB0B000')!.contact_methods.find((c: { id: string }) => c.id === 'PBC0002');
    service.name = 'Batch and cron jobs';
    sms.address = '2025550177';
    try {
      const again = await runImport(orm, 'pagerduty', { url: fake.url, credential: fake.token }, { organizationId });
      expect(again.created).toEqual(counts());
      expect(again.updated).toEqual(counts({ service: 1, contact_method: 1 }));
      expect((await getServiceDetail(orm, organizationId, mappedId(report, 'service', 'PSVC003'))).name).toBe('Batch and cron jobs');
      const [bob] = await notificationRulesFor(orm, [await userId('bob')], { organizationId });
      expect(bob.rules[0]).toMatchObject({ type: 'sms', address: '+12025550177', contactMethodId: mappedId(report, 'contact_method', 'PB0B000/PBC0002') });
    } finally {
      service.name = 'Batch jobs';
      sms.address = '(202) 555-0102';
    }
  });

  it('when the import ran, then its token is nowhere in the database and it left an audit entry', async () => {
    expect(await tablesHolding(orm, fake.token)).toEqual([]);
    const entry = await knexOf(orm)('audit_log').where({ organization_id: organizationId, action: 'import.run' }).orderBy('created_at').first();
    expect(entry).toMatchObject({ actor_kind: 'system', target_type: 'organization' });
    expect(JSON.stringify(entry)).not.toContain(fake.token);
  });
});

describe('a PagerDuty that answers users with references only', () => {
  it('when /users does not expand contact methods and rules, then each user’s are read from /users/{id}/contact_methods and /notification_rules', async () => {
    const own = await startPagerDutyApi({ expandIncludes: false });
    try {
      const ws = await importWorkspace(orm, { members: memberEmails(own.account.domain!) });
      const done = await runImport(orm, 'pagerduty', { url: own.url, credential: own.token }, { organizationId: ws.organizationId });
      expect(done.created).toMatchObject({ contact_method: 13, notification_rule: 10 });
      expect(own.requestsTo('/users/PB0B000/contact_methods')).toHaveLength(1);
      expect(own.requestsTo('/users/PB0B000/notification_rules').map((r) => r.query.urgency)).toEqual([['all']]);
    } finally {
      await own.stop();
    }
  });
});
