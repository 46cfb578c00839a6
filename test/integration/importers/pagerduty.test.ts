import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ImportReport } from '../../../src/domain/importers/plan';
import { knexOf } from '../../../src/db/knex';
import { openOrm } from '../../../src/db/orm';
import { getEscalationPolicy } from '../../../src/services/paging';
import { getServiceDetail } from '../../../src/services/workspace';
import { startPagerDutyApi, type PagerDutyApiFake } from '../../fakes/pagerduty-api';
import { importWorkspace, mappedId, onCallEmails, runImport, tablesHolding, workspaceRows, type SentMail } from '../../support/importers';

// A PagerDuty account (test/fixtures/pagerduty, served by a wire fake with two items a page) is
// imported into a workspace where five of its six people are members already.

const expected = JSON.parse(readFileSync(path.resolve(__dirname, '../../fixtures/pagerduty/expected-oncall.json'), 'utf8')) as {
  answers: Array<{ schedule: string; at: string; why: string; users: string[] }>;
};

let orm: MikroORM;
let fake: PagerDutyApiFake;
let organizationId: string;
let report: ImportReport;
const mails: SentMail[] = [];

beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
  fake = await startPagerDutyApi();
  ({ organizationId } = await importWorkspace(orm));
  report = await runImport(orm, 'pagerduty', { url: fake.url, credential: fake.token }, { organizationId, mails });
});
afterAll(async () => {
  await fake?.stop();
  await orm?.close();
});

describe('import from PagerDuty', () => {
  it('when the account is imported, then each kind is created once and every object is in the mapping', () => {
    expect(report.created).toEqual({ user: 1, team: 2, schedule: 2, escalation_policy: 2, service: 3, source: 2 });
    expect(report.updated).toEqual({ user: 0, team: 0, schedule: 0, escalation_policy: 0, service: 0, source: 0 });
    for (const [kind, id] of [
      ['user', 'PAL1CE0'],
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

  it('when lists are longer than a page, then every page was read with the documented headers', () => {
    // Six users at two a page: three requests, offsets 0, 2, 4.
    expect(fake.requestsTo('/users').map((r) => r.query.offset)).toEqual([['0'], ['2'], ['4']]);
    expect(fake.requests.every((r) => r.authorized && r.accept === 'application/vnd.pagerduty+json;version=2')).toBe(true);
    expect(fake.requestsTo('/services')[0].query['include[]']).toEqual(['integrations']);
  });

  it('when a person is not a member yet, then they are invited as a Member and the team says they come later', () => {
    expect(mails.map((m) => m.to)).toEqual(['frank@example.com']);
    expect(report.mapping).toContainEqual({ kind: 'user', external_id: 'PFRANK0', id: null, name: 'Frank Fisher' });
    expect(report.skipped).toContainEqual(
      expect.objectContaining({ kind: 'team', external_id: 'PT4M001', why: expect.stringMatching(/frank@example.com invited/) }),
    );
  });

  it.each(expected.answers.map((a) => [a.schedule, a.at, a.why, a.users] as const))(
    'when %s is asked who is on call at %s (%s), then Klaxon answers as PagerDuty',
    async (schedule, at, _why, users) => {
      expect(await onCallEmails(orm, mappedId(report, 'schedule', schedule), at)).toEqual(users);
    },
  );

  it('when a future override is imported, then its person is on call during it and not after', async () => {
    const override = fake.account.overrides.PSCH001[0];
    const scheduleId = mappedId(report, 'schedule', 'PSCH001');
    const middle = new Date((Date.parse(override.start) + Date.parse(override.end)) / 2).toISOString();
    expect(await onCallEmails(orm, scheduleId, middle)).toEqual(['erin@example.com']);
    expect(await onCallEmails(orm, scheduleId, override.end)).not.toEqual(['erin@example.com']);
  });

  it('when policies are imported, then their rules are steps with the same delays, targets and loops', async () => {
    const platform = await getEscalationPolicy(orm, mappedId(report, 'escalation_policy', 'PEP0001'), organizationId);
    const bob = (await knexOf(orm)('users').where({ email: 'bob@example.com' }).first('id')).id;
    expect(platform).toMatchObject({
      name: 'Platform EP',
      repeat: 2,
      steps: [
        { delay_seconds: 900, targets: [{ type: 'schedule', id: mappedId(report, 'schedule', 'PSCH001') }] },
        {
          delay_seconds: 1800,
          targets: [
            { type: 'user', id: bob },
            { type: 'schedule', id: mappedId(report, 'schedule', 'PSCH002') },
          ],
        },
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

  it('when the same account is imported again, then nothing is created or changed', async () => {
    const before = await workspaceRows(orm, organizationId);
    const again = await runImport(orm, 'pagerduty', { url: fake.url, credential: fake.token }, { organizationId, mails });
    expect(again.created).toEqual({ user: 0, team: 0, schedule: 0, escalation_policy: 0, service: 0, source: 0 });
    expect(again.updated).toEqual({ user: 0, team: 0, schedule: 0, escalation_policy: 0, service: 0, source: 0 });
    expect(again.mapping).toEqual(report.mapping);
    // One audit entry for the run itself; nothing else written.
    expect(await workspaceRows(orm, organizationId)).toEqual({ ...before, audit_log: before.audit_log + 1 });
    expect(mails).toHaveLength(1);
  });

  it('when the source changed a name, then a re-run updates that object only', async () => {
    const service = fake.account.services.find((s) => s.id === 'PSVC003')!;
    service.name = 'Batch and cron jobs';
    try {
      const again = await runImport(orm, 'pagerduty', { url: fake.url, credential: fake.token }, { organizationId });
      expect(again.created).toEqual({ user: 0, team: 0, schedule: 0, escalation_policy: 0, service: 0, source: 0 });
      expect(again.updated).toEqual({ user: 0, team: 0, schedule: 0, escalation_policy: 0, service: 1, source: 0 });
      expect((await getServiceDetail(orm, organizationId, mappedId(report, 'service', 'PSVC003'))).name).toBe('Batch and cron jobs');
    } finally {
      service.name = 'Batch jobs';
    }
  });

  it('when the import ran, then its token is nowhere in the database and it left an audit entry', async () => {
    expect(await tablesHolding(orm, fake.token)).toEqual([]);
    const entry = await knexOf(orm)('audit_log').where({ organization_id: organizationId, action: 'import.run' }).orderBy('created_at').first();
    expect(entry).toMatchObject({ actor_kind: 'system', target_type: 'organization' });
    expect(JSON.stringify(entry)).not.toContain(fake.token);
  });
});
