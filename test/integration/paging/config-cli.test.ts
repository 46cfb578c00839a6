import type { MikroORM } from '../../../src/db/orm';
import { knexOf } from '../../../src/db/knex';
import { klaxon, type CliResult } from '../../support/cli';
import { addMember, openTwoWorkspaces, rowCount, type SeededWorkspace } from '../../support/workspace';

let orm: MikroORM;
let ws: SeededWorkspace;
let other: SeededWorkspace;
beforeAll(async () => {
  ({ orm, ws, other } = await openTwoWorkspaces());
});
afterAll(() => orm.close());

const count = (table: string) => rowCount(orm, table);
const ok = (res: CliResult) => {
  expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
  expect(res.stdout.trim().split('\n')).toHaveLength(1);
  return res.json;
};
/** Runs a command that must be refused: non-zero exit, one readable line, nothing printed or written. */
const refused = async (table: string, args: string[], message: RegExp) => {
  const before = await count(table);
  const res = await klaxon(args);
  expect(res.code).not.toBe(0);
  expect(res.stdout).toBe('');
  expect(res.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^klaxon: error: /)]);
  expect(res.stderr).toMatch(message);
  expect(await count(table)).toBe(before);
};

describe('klaxon paging configuration', () => {
  it('when contacts, rules, a policy, the service policy and a team member are set up, then each prints one object of the contract', async () => {
    const m = await addMember(orm, ws.organizationId, 'MEMBER');
    const contact = ok(await klaxon(['contact', 'add', '--user', m.email, '--type', 'sms', '--address', '+14155550100', '--label', 'work phone', '--json']));
    expect(contact).toMatchObject({ id: expect.any(String), user_id: m.id, type: 'sms', address: '+14155550100', label: 'work phone' });

    const rule = ok(await klaxon(['rule', 'add', '--user', m.email, '--contact', contact.id, '--delay-seconds', '60', '--json']));
    expect(rule).toEqual({ id: expect.any(String), user_id: m.id, contact_method_id: contact.id, delay_seconds: 60 });

    const steps = [
      { delay_seconds: 2, targets: [{ type: 'user', id: m.id }] },
      { delay_seconds: 5, targets: [{ type: 'team', id: ws.teamId }] },
    ];
    const args = ['policy', 'create', '--org', ws.organizationId, '--name', 'Primary', '--steps', JSON.stringify(steps), '--repeat', '1'];
    const policy = ok(await klaxon([...args, '--ack-timeout-seconds', '600', '--json']));
    expect(policy).toEqual({ id: expect.any(String), name: 'Primary', steps, repeat: 1, ack_timeout_seconds: 600 });

    expect(ok(await klaxon(['service', 'set-policy', '--service', ws.serviceId, '--policy', policy.id, '--json']))).toEqual({
      service_id: ws.serviceId,
      escalation_policy_id: policy.id,
    });
    expect((await knexOf(orm)('services').where({ id: ws.serviceId }).first()).escalation_policy_id).toBe(policy.id);

    const joined = { team_id: ws.teamId, user_id: m.id, email: m.email };
    expect(ok(await klaxon(['team', 'add-member', '--team', ws.teamId, '--user', m.email, '--json']))).toEqual(joined);
    expect(ok(await klaxon(['team', 'add-member', '--team', ws.teamId, '--user', m.email, '--json']))).toEqual(joined);
    expect(await knexOf(orm)('team_members').where({ team_id: ws.teamId }).pluck('user_id')).toEqual([m.id]);

    const list = ok(await klaxon(['contact', 'list', '--user', m.email, '--json']));
    expect(list.contact_methods.map((c: { id: string }) => c.id)).toEqual([contact.id]);
  });

  it('when a contact address or rule delay is bad or repeated, then refused with a readable line', async () => {
    const m = await addMember(orm, ws.organizationId, 'MEMBER');
    await refused(
      'contact_methods',
      ['contact', 'add', '--user', m.email, '--type', 'sms', '--address', '0415 555 0100', '--json'],
      /--address: must be a phone number in E\.164 form/,
    );
    await refused(
      'contact_methods',
      ['contact', 'add', '--user', m.email, '--type', 'pager', '--address', 'x', '--json'],
      /--type: must be one of sms, voice, email, push_ios, push_android/,
    );
    const contact = ok(await klaxon(['contact', 'add', '--user', m.email, '--type', 'email', '--address', m.email, '--json']));
    await refused(
      'contact_methods',
      ['contact', 'add', '--user', m.email, '--type', 'email', '--address', m.email.toUpperCase(), '--json'],
      /already has this email address/,
    );
    await refused(
      'notification_rules',
      ['rule', 'add', '--user', m.email, '--contact', contact.id, '--delay-seconds', '90000', '--json'],
      /--delay-seconds: must be at most 86400 seconds/,
    );
    await refused(
      'notification_rules',
      ['rule', 'add', '--user', m.email, '--contact', contact.id, '--delay-seconds', 'soon', '--json'],
      /--delay-seconds: must be a whole number/,
    );
  });

  it('when a policy has bad JSON, a bad step or a target of another workspace, then refused and nothing stored', async () => {
    const base = ['policy', 'create', '--org', ws.organizationId, '--name', 'Bad', '--repeat', '0', '--json'];
    await refused('escalation_policies', [...base, '--steps', '[{"delay_seconds": 1,'], /--steps: must be JSON/);
    await refused(
      'escalation_policies',
      [...base, '--steps', '[{"delay_seconds": 1, "targets": [{"type": "user", "id": "bob"}]}]'],
      /--steps\[0\]\.targets\[0\]\.id: must be an id \(UUID\)/,
    );
    const outsider = JSON.stringify([{ delay_seconds: 1, targets: [{ type: 'team', id: other.teamId }] }]);
    await refused(
      'escalation_policies',
      [...base, '--steps', outsider],
      new RegExp(`steps\\[0\\]\\.targets\\[0\\]: team ${other.teamId} is not a team of this workspace`),
    );
    await refused(
      'escalation_policies',
      [...base.slice(0, -3), '--repeat', '12', '--steps', '[]', '--json'],
      /--steps: needs at least one step; --repeat: must be at most 9/,
    );
  });

  it('when a service is given another workspace’s policy, then refused and the service keeps its policy', async () => {
    const steps = JSON.stringify([{ delay_seconds: 1, targets: [{ type: 'team', id: other.teamId }] }]);
    const foreign = ok(await klaxon(['policy', 'create', '--org', other.organizationId, '--name', 'Theirs', '--steps', steps, '--repeat', '0', '--json']));
    const before = (await knexOf(orm)('services').where({ id: ws.serviceId }).first()).escalation_policy_id;
    await refused('escalation_policies', ['service', 'set-policy', '--service', ws.serviceId, '--policy', foreign.id], /belongs to another workspace/);
    expect((await knexOf(orm)('services').where({ id: ws.serviceId }).first()).escalation_policy_id).toBe(before);
  });
});
