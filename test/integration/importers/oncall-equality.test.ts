import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ImportReport, ImportSystem } from '../../../src/domain/importers/plan';
import { openOrm } from '../../../src/db/orm';
import { loadImportPlan } from '../../../src/integrations/import-sources';
import { applyImportPlan } from '../../../src/services/importers';
import { onCall } from '../../../src/services/paging';
import { fixtureAccount as opsgenieAccount, startOpsgenieApi } from '../../../src/integrations/opsgenie/testing/wire-fake';
import { fixtureAccount as pagerDutyAccount, startPagerDutyApi } from '../../../src/integrations/pagerduty/testing/wire-fake';
import { CLI_ACTOR, fixtureEmail, importDeps, importWorkspace, mappedId } from '../../support/importers';
import { opsgenieSchedule, pagerDutySchedule, sourceEdges, sourceOnCall, type SourceSchedule } from '../../support/source-oncall';

// After an import, "who is on call" in Klaxon equals the source's answer at every instant
// (docs/importers.md). The hand-worked accounts of test/fixtures are imported on 2030-02-25 into
// workspaces where nobody of them is a member yet, and Klaxon is asked at every handoff, window
// edge and override edge of March 2030 (the US clocks go forward on the 10th, Europe's on the
// 31st), and a minute before each, against an oracle that works the source's schedules out on
// their own (test/support/source-oncall.ts) and agrees with the hand-worked answers.

const IMPORTED_ON = new Date('2030-02-25T00:00:00Z');
const MONTH = { from: Date.parse('2030-03-01T00:00:00Z'), to: Date.parse('2030-04-01T00:00:00Z') };
const fixture = (system: string, name: string) =>
  JSON.parse(readFileSync(path.resolve(__dirname, '../../../src/integrations', system, 'testing/fixtures', name), 'utf8'));

let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
});
afterAll(() => orm?.close());

/** Imports a fake's account as of IMPORTED_ON into a workspace nobody of it has joined. */
async function imported(system: ImportSystem, source: { url: string; credential: string }): Promise<ImportReport> {
  const { organizationId } = await importWorkspace(orm, { members: [] });
  const { plan } = await loadImportPlan(system, { credential: source.credential, apiUrl: source.url, allowPrivate: true }, IMPORTED_ON);
  return applyImportPlan(importDeps(orm), { organizationId, system, dryRun: false, actor: CLI_ACTOR }, plan);
}

/** Compares Klaxon with the oracle at every edge of the month and a minute before it: [instants compared, mismatches]. */
async function compare(schedules: Array<{ source: SourceSchedule; klaxonId: string }>, emailOf: Map<string, string>) {
  let instants = 0;
  const mismatches: string[] = [];
  for (const { source, klaxonId } of schedules) {
    for (const edge of sourceEdges(source, MONTH.from, MONTH.to)) {
      for (const at of [edge - 60_000, edge]) {
        instants++;
        const expected = sourceOnCall(source, at)
          .map((id) => emailOf.get(id)!)
          .sort();
        const actual = (await onCall(orm, { scheduleId: klaxonId, at: new Date(at) })).users.map((u) => u.email).sort();
        if (JSON.stringify(actual) !== JSON.stringify(expected))
          mismatches.push(`${source.id} at ${new Date(at).toISOString()}: Klaxon ${actual.join(',') || 'nobody'}, source ${expected.join(',') || 'nobody'}`);
      }
    }
  }
  return { instants, mismatches };
}

describe('the oracle', () => {
  it('when it is asked the hand-worked instants of both fixtures, then it answers as they were worked out by hand', () => {
    const pd = fixture('pagerduty', 'schedules.json').schedules as Array<Record<string, any>>;
    const pdPeople = new Map((fixture('pagerduty', 'users.json').users as Array<{ id: string; email: string }>).map((u) => [u.id, u.email]));
    for (const a of fixture('pagerduty', 'expected-oncall.json').answers as Array<{ schedule: string; at: string; users: string[] }>) {
      const schedule = pagerDutySchedule(pd.find((s) => s.id === a.schedule)!);
      expect({ at: a.at, users: sourceOnCall(schedule, Date.parse(a.at)).map((id) => pdPeople.get(id)) }).toEqual({ at: a.at, users: a.users });
    }
    const og = fixture('opsgenie', 'schedules.json').data as Array<Record<string, any>>;
    const ogPeople = new Map((fixture('opsgenie', 'users.json').data as Array<{ id: string; username: string }>).map((u) => [u.id, u.username]));
    for (const a of fixture('opsgenie', 'expected-oncall.json').answers as Array<{ schedule: string; at: string; users: string[] }>) {
      const schedule = opsgenieSchedule(og.find((s) => s.id === a.schedule)!);
      expect({ at: a.at, users: sourceOnCall(schedule, Date.parse(a.at)).map((id) => ogPeople.get(id)) }).toEqual({ at: a.at, users: a.users });
    }
  });
});

describe('on call after an import, every handoff of a month with a DST change', () => {
  it('when the PagerDuty account is imported, then Klaxon answers as PagerDuty at every handoff, window and override edge of March 2030', async () => {
    const account = pagerDutyAccount(IMPORTED_ON);
    const fake = await startPagerDutyApi({ account });
    try {
      const report = await imported('pagerduty', { url: fake.url, credential: fake.token });
      const emailOf = new Map(account.users.map((u) => [u.id as string, u.email as string]));
      const schedules = ['PSCH001', 'PSCH002'].map((id) => ({
        source: pagerDutySchedule(
          account.schedules.find((s) => s.id === id)!,
          account.overrides[id],
        ),
        klaxonId: mappedId(report, 'schedule', id),
      }));
      expect(schedules[0].source.overrides.length).toBeGreaterThan(0);
      const { instants, mismatches } = await compare(schedules, emailOf);
      console.info(`PagerDuty, March 2030: ${instants} instants compared, ${mismatches.length} mismatches`);
      expect(mismatches).toEqual([]);
      expect(instants).toBeGreaterThan(200);
    } finally {
      await fake.stop();
    }
  });

  it('when the Opsgenie account is imported, then Klaxon answers as Opsgenie for its schedules whose rotations never meet', async () => {
    const account = opsgenieAccount(IMPORTED_ON);
    const fake = await startOpsgenieApi({ account });
    try {
      const report = await imported('opsgenie', { url: fake.url, credential: fake.apiKey });
      const emailOf = new Map(account.users.map((u) => [u.id as string, u.username as string]));
      // Overlap_schedule is reported as answering differently (Opsgenie pages both rotations); Legacy_schedule does not come.
      const schedules = account.schedules
        .filter((s) => s.name === 'SRE_schedule' || s.name === 'Data_schedule')
        .map((s) => ({ source: opsgenieSchedule(s, account.overrides[s.id]), klaxonId: mappedId(report, 'schedule', s.id) }));
      const { instants, mismatches } = await compare(schedules, emailOf);
      console.info(`Opsgenie, March 2030: ${instants} instants compared, ${mismatches.length} mismatches`);
      expect(mismatches).toEqual([]);
      expect(instants).toBeGreaterThan(200);
      // The hand-worked answers, in this workspace nobody had joined.
      for (const a of fixture('opsgenie', 'expected-oncall.json').answers as Array<{ schedule: string; at: string; users: string[] }>) {
        const users = (await onCall(orm, { scheduleId: mappedId(report, 'schedule', a.schedule), at: new Date(a.at) })).users.map((u) => u.email);
        expect({ at: a.at, users }).toEqual({ at: a.at, users: a.users.map((u) => fixtureEmail(u, account.domain!)) });
      }
    } finally {
      await fake.stop();
    }
  });
});
