import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { openOrm } from '../../../src/db/orm';
import { IMPORT_KINDS } from '../../../src/domain/importers/plan';
import { klaxon } from '../../support/cli';
import { TEST_SECRET } from '../../support/stack';
import { startOpsgenieApi, type OpsgenieApiFake } from '../../../src/integrations/opsgenie/testing/wire-fake';
import { startPagerDutyApi, type PagerDutyApiFake } from '../../../src/integrations/pagerduty/testing/wire-fake';
import { counts, importWorkspace, memberEmails, workspaceRows } from '../../support/importers';

// `klaxon import pagerduty|opsgenie` as an operator runs it (bin/klaxon.js: the built dist/ when
// it is current, `node bin/build.js`), against wire fakes of both APIs.

const { buildIsCurrent, chooseEntry } = require('../../../bin/build-stamp') as {
  buildIsCurrent: (root: string) => boolean;
  chooseEntry: (root: string) => unknown;
};
const ROOT = path.resolve(__dirname, '..', '..', '..');
const ENV = { ALLOW_PRIVATE_TARGETS: 'true', KLAXON_SECRET: TEST_SECRET };
let orm: MikroORM;
let pd: PagerDutyApiFake;
let og: OpsgenieApiFake;
beforeAll(async () => {
  // The operator's command runs the build: make it current, and check that dist/ is what runs. A
  // current build is left alone: rebuilding empties dist/ under other test files' running commands.
  if (!buildIsCurrent(ROOT)) {
    const build = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'build.js')], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`node bin/build.js failed: ${build.stderr}`);
  }
  expect((chooseEntry(ROOT) as { from: string }).from).toBe('dist');
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 2);
  [pd, og] = await Promise.all([startPagerDutyApi(), startOpsgenieApi()]);
});
afterAll(async () => {
  await Promise.all([pd?.stop(), og?.stop()]);
  await orm?.close();
});

const zero = counts();

describe('klaxon import', () => {
  it('when PagerDuty is imported with --json, then exactly the report object is printed, and a second run creates nothing', async () => {
    const { organizationId } = await importWorkspace(orm, { members: memberEmails(pd.account.domain!) });
    const args = ['import', 'pagerduty', '--api-token', pd.token, '--api-url', pd.url, '--org', organizationId, '--json'];
    const res = await klaxon(args, ENV);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    expect(Object.keys(res.json).sort()).toEqual(['created', 'mapping', 'skipped', 'updated']);
    expect(Object.keys(res.json.created).sort()).toEqual([...IMPORT_KINDS].sort());
    expect(Object.keys(res.json.updated).sort()).toEqual([...IMPORT_KINDS].sort());
    expect(res.json.created).toEqual(
      counts({ user: 1, contact_method: 13, notification_rule: 10, team: 2, schedule: 2, escalation_policy: 2, service: 3, source: 2 }),
    );
    for (const s of res.json.skipped) expect(Object.keys(s).sort()).toEqual(['external_id', 'kind', 'name', 'why']);
    for (const m of res.json.mapping) expect(Object.keys(m).sort()).toEqual(['external_id', 'id', 'kind', 'name']);

    const again = await klaxon(args, ENV);
    expect(again.code).toBe(0);
    expect(again.json.created).toEqual(zero);
    expect(again.json.updated).toEqual(zero);
    expect(again.stdout + again.stderr).not.toContain(pd.token);
  });

  it('when Opsgenie is planned with --dry-run and no --json, then a readable plan with what is skipped and why is printed and nothing is written', async () => {
    const { organizationId } = await importWorkspace(orm, { members: memberEmails(og.account.domain!) });
    const before = await workspaceRows(orm, organizationId);
    const res = await klaxon(['import', 'opsgenie', '--api-key', og.apiKey, '--api-url', og.url, '--org', organizationId, '--dry-run'], ENV);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Import from Opsgenie: the plan (dry run, nothing was written)');
    expect(res.stdout).toContain(
      'Would create: 1 user, 12 contact methods, 9 notification rules, 3 teams, 3 schedules, 2 escalation policies, 4 services, 3 sources (new members get a welcome email)',
    );
    expect(res.stdout).toMatch(/- escalation policy "SRE_escalation \/ rule 4" \([0-9a-f-]+\/rules\/3\): its condition if-not-closed/);
    expect(await workspaceRows(orm, organizationId)).toEqual(before);
  });

  it('when the token is refused, then the command fails with one line that says so and never prints the token', async () => {
    const { organizationId } = await importWorkspace(orm, { members: memberEmails(pd.account.domain!) });
    const token = 'y_NOT-the-right-token-1234';
    const res = await klaxon(['import', 'pagerduty', '--api-token', token, '--api-url', pd.url, '--org', organizationId, '--json'], ENV);
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(
      /^klaxon: error: PagerDuty refused the API credential \(401\): check that it is right, not revoked, and may read this account\n$/,
    );
    expect(res.stderr).not.toContain(token);
  });

  it('when the API cannot be reached or options are wrong, then the command fails naming the problem', async () => {
    const { organizationId } = await importWorkspace(orm, { members: memberEmails(og.account.domain!) });
    const refused = await klaxon(['import', 'opsgenie', '--api-key', og.apiKey, '--api-url', 'http://169.254.169.254', '--org', organizationId], ENV);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/^klaxon: error: the Opsgenie API URL targets a cloud metadata address/);
    const noOrg = await klaxon(['import', 'opsgenie', '--api-key', og.apiKey, '--org', 'acme'], ENV);
    expect(noOrg.code).toBe(2);
    expect(noOrg.stderr).toMatch(/--org: must be a workspace id \(UUID\)/);
  });
});
