import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ImportReport } from '../../../src/domain/importers/plan';
import { knexOf } from '../../../src/db/knex';
import { openOrm } from '../../../src/db/orm';
import { getEscalationPolicy, notificationRulesFor } from '../../../src/services/paging';
import { getServiceDetail } from '../../../src/services/workspace';
import { startOpsgenieApi, type OpsgenieApiFake } from '../../../src/integrations/opsgenie/testing/wire-fake';
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

// An Opsgenie account (src/integrations/opsgenie/testing/fixtures, served by a wire fake with two items a page) is
// imported into a workspace where five of its six people are members already; Frank, a
// Stakeholder there, is new: the import makes him a member (a Stakeholder) at once.

const FIXTURES = path.resolve(__dirname, '../../../src/integrations/opsgenie/testing/fixtures');
const fixture = (name: string) => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));
const expected = fixture('expected-oncall.json') as { answers: Array<{ schedule: string; schedule_name: string; at: string; why: string; users: string[] }> };
/** An object's id in a fixture file, by its name (people by the local part of their username). */
const idOf = (file: string, name: string): string =>
  (fixture(file).data as Array<{ id: string; name?: string; username?: string }>).find((o) => o.name === name || o.username === `${name}@example.com`)!.id;

let orm: MikroORM;
let fake: OpsgenieApiFake;
let organizationId: string;
let report: ImportReport;
const mails: SentMail[] = [];
const email = (name: string) => `${name}@${fake.account.domain}`;

beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
  fake = await startOpsgenieApi();
  ({ organizationId } = await importWorkspace(orm, { members: memberEmails(fake.account.domain!) }));
  report = await runImport(orm, 'opsgenie', { url: fake.url, credential: fake.apiKey }, { organizationId, mails });
});
afterAll(async () => {
  await fake?.stop();
  await orm?.close();
});

describe('import from Opsgenie', () => {
  it('when the account is imported, then each kind is created once', async () => {
    // Services: its three, and one for the Mobile team, whose API integration needs a service to feed.
    expect(report.created).toEqual(
      counts({ user: 1, contact_method: 12, notification_rule: 9, team: 3, schedule: 3, escalation_policy: 2, service: 4, source: 3 }),
    );
    expect(report.updated).toEqual(counts());
    // Frank is a member at once (a Stakeholder, as in Opsgenie): a welcome email, no invitation.
    expect(mails.map((m) => m.to)).toEqual([email('frank')]);
    const frank = await knexOf(orm)('memberships').where({ organization_id: organizationId, user_id: mappedId(report, 'user', idOf('users.json', 'frank')) });
    expect(frank).toEqual([expect.objectContaining({ role: 'STAKEHOLDER' })]);
  });

  it('when users have contacts and new-alert rules with steps, then each enabled step on an imported contact pages them, at its delay', async () => {
    const erin = mappedId(report, 'user', idOf('users.json', 'erin'));
    const [rules] = await notificationRulesFor(orm, [erin], { organizationId });
    expect(rules.rules.map((r) => [r.type, r.address, r.delaySeconds])).toEqual([
      ['sms', '+4915123456712', 0],
      ['voice', '+4915123456712', 180],
    ]);
    expect(fake.requestsTo(`/v2/users/${idOf('users.json', 'erin')}/contacts`)).toHaveLength(1);
    const why = (prefix: string) => report.skipped.filter((s) => s.external_id.startsWith(prefix)).map((s) => s.why);
    const alice = idOf('users.json', 'alice');
    expect(why(`${alice}/`)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Opsgenie's mobile app/),
        expect.stringMatching(/mobile contact was not brought in/),
        expect.stringMatching(/a rule for schedule-start/),
      ]),
    );
    expect(why(`${idOf('users.json', 'erin')}/`)).toEqual([expect.stringMatching(/some alerts or times only/)]);
    expect(why(`${idOf('users.json', 'carol')}/`)).toEqual(
      expect.arrayContaining([expect.stringMatching(/disabled in Opsgenie \(Disabled by user\)/), expect.stringMatching(/it is disabled in Opsgenie/)]),
    );
  });

  it('when lists page, then every page was read through paging.next with the GenieKey header', () => {
    expect(fake.requestsTo('/v2/users').map((r) => r.query.offset)).toEqual([['0'], ['2'], ['4']]);
    expect(fake.requestsTo('/v1/services').map((r) => r.query.offset)).toEqual([['0'], ['2']]);
    expect(fake.requestsTo('/v2/schedules')[0].query.expand).toEqual(['rotation']);
    expect(fake.requests.every((r) => r.authorized)).toBe(true);
  });

  it.each(expected.answers.map((a) => [a.schedule_name, a.at, a.why, a.schedule, a.users] as const))(
    'when %s is asked who is on call at %s (%s), then Klaxon answers as Opsgenie',
    async (_name, at, _why, schedule, users) => {
      expect(await onCallEmails(orm, mappedId(report, 'schedule', schedule), at)).toEqual(users.map((u) => fixtureEmail(u, fake.account.domain!)));
    },
  );

  it('when a future override is imported, then its person is on call during it', async () => {
    const scheduleId = idOf('schedules.json', 'SRE_schedule');
    const override = fake.account.overrides[scheduleId][0];
    const middle = new Date((Date.parse(override.startDate) + Date.parse(override.endDate)) / 2).toISOString();
    expect(await onCallEmails(orm, mappedId(report, 'schedule', scheduleId), middle)).toEqual([email('erin')]);
  });

  it('when escalations are imported, then rules timed from the alert become steps that wait between them', async () => {
    const sre = await getEscalationPolicy(orm, mappedId(report, 'escalation_policy', idOf('escalations.json', 'SRE_escalation')), organizationId);
    const bob = (
      await knexOf(orm)('users')
        .where({ email: email('bob') })
        .first('id')
    ).id;
    expect(sre).toMatchObject({
      repeat: 2,
      steps: [
        { delay_seconds: 300, targets: [{ type: 'schedule', id: mappedId(report, 'schedule', idOf('schedules.json', 'SRE_schedule')) }] },
        { delay_seconds: 300, targets: [{ type: 'user', id: bob }] },
        // The last waits the repeat interval (10 minutes) before the policy runs again.
        { delay_seconds: 600, targets: [{ type: 'team', id: mappedId(report, 'team', idOf('teams.json', 'SRE')) }] },
      ],
    });
  });

  it('when a rule has a condition or notify type Klaxon does not have, then it is reported with why', () => {
    const sre = idOf('escalations.json', 'SRE_escalation');
    const data = idOf('escalations.json', 'Data_escalation');
    const why = (id: string) => report.skipped.filter((s) => s.external_id === id).map((s) => s.why);
    expect(why(`${sre}/rules/3`)).toEqual([expect.stringMatching(/condition if-not-closed/)]);
    expect(why(`${sre}/rules/4`)).toEqual([expect.stringMatching(/notifyType next/)]);
    expect(why(`${data}/rules/2`)).toEqual([expect.stringMatching(/notifyType default .*routing rules/)]);
    expect(why(`${data}/rules/3`)).toEqual([expect.stringMatching(/Legacy_schedule was not brought in/)]);
  });

  it('when rotations hold escalations or "none", or two rotations overlap, then that is reported', () => {
    const legacy = idOf('schedules.json', 'Legacy_schedule');
    const overlap = idOf('schedules.json', 'Overlap_schedule');
    const whys = (prefix: string) => report.skipped.filter((s) => s.external_id.startsWith(prefix)).map((s) => s.why);
    expect(whys(legacy)).toEqual(
      expect.arrayContaining([expect.stringMatching(/of type escalation/), expect.stringMatching(/type none/), expect.stringMatching(/none of its rotations/)]),
    );
    expect(whys(overlap)).toEqual([expect.stringMatching(/on call together with Shadow .*Opsgenie pages both/)]);
    expect(report.mapping.some((m) => m.external_id === legacy)).toBe(false);
  });

  it('when API integrations are imported, then each is a source of its team’s service keeping its key without dashes', async () => {
    const knex = knexOf(orm);
    const source = await knex('alert_sources')
      .where({ id: mappedId(report, 'source', idOf('integrations.json', 'Alertmanager')) })
      .first();
    expect(source.routing_key).toBe('3f1e9a448c2b4d719b1a2e6c5d7f8a90');
    expect(source.service_id).toBe(mappedId(report, 'service', idOf('services.json', 'Edge')));
    const edge = await getServiceDetail(orm, organizationId, source.service_id);
    expect(edge.escalation_policy_id).toBe(mappedId(report, 'escalation_policy', idOf('escalations.json', 'SRE_escalation')));
    const skippedIntegrations = report.skipped.filter((s) => s.kind === 'source').map((s) => s.name);
    expect(skippedIntegrations.sort()).toEqual(['Datadog', 'Global API']);
  });

  it('when the same account is imported again, then nothing is created or changed, and the key is nowhere in the database', async () => {
    const before = await workspaceRows(orm, organizationId);
    const again = await runImport(orm, 'opsgenie', { url: fake.url, credential: fake.apiKey }, { organizationId, mails });
    expect(again.created).toEqual(counts());
    expect(again.updated).toEqual(counts());
    expect(await workspaceRows(orm, organizationId)).toEqual({ ...before, audit_log: before.audit_log + 1 });
    expect(await tablesHolding(orm, fake.apiKey)).toEqual([]);
  });
});
