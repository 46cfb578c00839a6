import { randomUUID } from 'node:crypto';
import type { MikroORM } from '../../../src/db/orm';
import { addContactMethod, listContactMethods, removeContactMethod } from '../../../src/services/paging/contacts';
import { knexOf } from '../../../src/db/knex';
import { createEscalationPolicy, getEscalationPolicy, policyOfService, setServicePolicy } from '../../../src/services/paging/escalation-policies';
import { addNotificationRule, notificationRulesFor } from '../../../src/services/paging/notification-rules';
import { addTeamMember, teamMemberIds } from '../../../src/services/workspace/team-members';
import { addMember, openTwoWorkspaces, rowCount, seedWorkspace, type SeededWorkspace } from '../../support/workspace';

let orm: MikroORM;
let ws: SeededWorkspace;
let other: SeededWorkspace;
beforeAll(async () => {
  ({ orm, ws, other } = await openTwoWorkspaces());
});
afterAll(() => orm.close());

const count = (table: string) => rowCount(orm, table);
const member = () => addMember(orm, ws.organizationId, 'MEMBER');
const sms = (email: string, address = '+14155550100') => addContactMethod(orm, { email, type: 'sms', address });
const schedule = async (organizationId: string) => {
  const now = new Date();
  const row = { id: randomUUID(), organization_id: organizationId, name: 'Primary', time_zone: 'UTC', layers: '[]', created_at: now, updated_at: now };
  await knexOf(orm)('schedules').insert(row);
  return row.id;
};
/** Runs a call that must fail, and checks that it wrote nothing to `table`. */
const refusedWithoutWrites = async (table: string, call: () => Promise<unknown>) => {
  const before = await count(table);
  const err = await call().then(
    () => undefined,
    (e: Error & { kind?: string }) => e,
  );
  expect(await count(table)).toBe(before);
  if (!err) throw new Error('expected the call to be refused');
  return err;
};

describe('contact methods', () => {
  it('when a member adds an sms number, then it is stored normalised in their workspace', async () => {
    const m = await member();
    const c = await addContactMethod(orm, { email: m.email.toUpperCase(), type: 'sms', address: '+1 (415) 555-0100', label: 'work' });
    expect(c).toMatchObject({ user_id: m.id, organization_id: ws.organizationId, type: 'sms', address: '+14155550100', label: 'work', disabled_at: null });
    expect(await listContactMethods(orm, { email: m.email })).toEqual([c]);
  });

  it('when the same user, type and address is added twice, then a conflict and one row', async () => {
    const m = await member();
    await sms(m.email);
    const err = await refusedWithoutWrites('contact_methods', () => sms(m.email, '+1 415 555 0100'));
    expect(err).toMatchObject({ kind: 'conflict', code: 'duplicate_contact_method', message: expect.stringMatching(/already has this sms address/) });
  });

  it('when the user is unknown or the address does not fit the type, then a clear error and nothing stored', async () => {
    expect(await refusedWithoutWrites('contact_methods', () => sms('nobody@example.test'))).toMatchObject({
      kind: 'not_found',
      message: 'no user with email nobody@example.test',
    });
    const m = await member();
    const bad = await refusedWithoutWrites('contact_methods', () => addContactMethod(orm, { email: m.email, type: 'voice', address: '555-0100' }));
    expect(bad).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^address: must be a phone number in E\.164 form/) });
    const type = await refusedWithoutWrites('contact_methods', () => addContactMethod(orm, { email: m.email, type: 'fax', address: '+14155550100' }));
    expect(type.message).toMatch(/^type: must be one of/);
  });

  it('when the user is in several workspaces, then the workspace must be named, and must be one of theirs', async () => {
    const m = await member();
    await knexOf(orm)('memberships').insert({ id: randomUUID(), organization_id: other.organizationId, user_id: m.id, role: 'MEMBER', created_at: new Date() });
    expect((await refusedWithoutWrites('contact_methods', () => sms(m.email))).message).toMatch(/member of 2 workspaces: name one with --org/);
    const stranger = await seedWorkspace(orm);
    const err = await refusedWithoutWrites('contact_methods', () =>
      addContactMethod(orm, { email: m.email, type: 'email', address: m.email, organizationId: stranger.organizationId }),
    );
    expect(err.message).toMatch(/is not a member of workspace/);
    const c = await addContactMethod(orm, { email: m.email, type: 'email', address: m.email, organizationId: other.organizationId });
    expect(c.organization_id).toBe(other.organizationId);
  });

  it('when a contact method is removed, then its rules go with it and other contacts stay', async () => {
    const m = await member();
    const [a, b] = [await sms(m.email), await sms(m.email, '+14155550199')];
    await addNotificationRule(orm, { email: m.email, contactMethodId: a.id, delaySeconds: 0 });
    await addNotificationRule(orm, { email: m.email, contactMethodId: a.id, delaySeconds: 60 });
    await addNotificationRule(orm, { email: m.email, contactMethodId: b.id, delaySeconds: 0 });
    expect(await removeContactMethod(orm, { id: a.id })).toEqual({ id: a.id, removed: true, rules_removed: 2 });
    expect((await listContactMethods(orm, { email: m.email })).map((c) => c.id)).toEqual([b.id]);
    expect(await knexOf(orm)('notification_rules').where({ user_id: m.id }).pluck('contact_method_id')).toEqual([b.id]);
    await expect(removeContactMethod(orm, { id: a.id })).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('notification rules', () => {
  it('when a rule is added on the user’s contact, then it is stored; the same contact and delay again is a conflict', async () => {
    const m = await member();
    const c = await sms(m.email);
    const r = await addNotificationRule(orm, { email: m.email, contactMethodId: c.id, delaySeconds: 120 });
    expect(r).toEqual({ id: expect.any(String), user_id: m.id, contact_method_id: c.id, delay_seconds: 120 });
    const err = await refusedWithoutWrites('notification_rules', () => addNotificationRule(orm, { email: m.email, contactMethodId: c.id, delaySeconds: 120 }));
    expect(err).toMatchObject({ kind: 'conflict', code: 'duplicate_notification_rule' });
  });

  it('when the contact is someone else’s, disabled, or the delay is out of range, then refused and nothing stored', async () => {
    const [m, n] = [await member(), await member()];
    const theirs = await sms(n.email);
    const mine = await sms(m.email);
    const foreign = await refusedWithoutWrites('notification_rules', () =>
      addNotificationRule(orm, { email: m.email, contactMethodId: theirs.id, delaySeconds: 0 }),
    );
    expect(foreign.message).toBe(`contact method ${theirs.id} is not a contact method of ${m.email}`);
    for (const delaySeconds of [-1, 86_401, 2.5]) {
      const err = await refusedWithoutWrites('notification_rules', () => addNotificationRule(orm, { email: m.email, contactMethodId: mine.id, delaySeconds }));
      expect(err).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^delaySeconds: must be/) });
    }
    await knexOf(orm)('contact_methods').update({ disabled_at: new Date(), disabled_reason: 'invalid number' }).where({ id: mine.id });
    expect(
      (await refusedWithoutWrites('notification_rules', () => addNotificationRule(orm, { email: m.email, contactMethodId: mine.id, delaySeconds: 0 }))).message,
    ).toMatch(/disabled \(invalid number\)/);
  });

  it('when people are paged, then rules come in firing order, disabled contacts are skipped and a user without rules gets their email', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    const push = await addContactMethod(orm, { email: a.email, type: 'push_ios', address: 'ab'.repeat(32) });
    const voice = await addContactMethod(orm, { email: a.email, type: 'voice', address: '+14155550100' });
    const dead = await sms(a.email, '+14155550111');
    await addNotificationRule(orm, { email: a.email, contactMethodId: voice.id, delaySeconds: 300 });
    await addNotificationRule(orm, { email: a.email, contactMethodId: push.id, delaySeconds: 0 });
    await addNotificationRule(orm, { email: a.email, contactMethodId: dead.id, delaySeconds: 60 });
    await knexOf(orm)('contact_methods').update({ disabled_at: new Date(), disabled_reason: 'unreachable' }).where({ id: dead.id });
    const mail = await addContactMethod(orm, { email: b.email, type: 'email', address: b.email });

    const planned = await notificationRulesFor(orm, [b.id, a.id, c.id, randomUUID(), 'not-a-uuid', a.id]);
    expect(planned.map((p) => p.userId)).toEqual([b.id, a.id, c.id]);
    expect(planned[1].rules.map((r) => [r.type, r.delaySeconds])).toEqual([
      ['push_ios', 0],
      ['voice', 300],
    ]);
    expect(planned[1].contacts.map((x) => x.id)).toEqual([push.id, voice.id]);
    expect(planned[0]).toEqual({
      userId: b.id,
      email: b.email,
      rules: [{ ruleId: null, contactMethodId: mail.id, type: 'email', address: b.email, delaySeconds: 0 }],
      contacts: [{ id: mail.id, type: 'email', address: b.email }],
    });
    expect(planned[2]).toEqual({ userId: c.id, email: c.email, rules: [], contacts: [] });
    expect((await notificationRulesFor(orm, [a.id], { organizationId: other.organizationId }))[0].rules).toEqual([]);
  });
});

describe('escalation policies', () => {
  const steps = (targets: Array<{ type: string; id: string }>) => [{ delay_seconds: 1, targets }];

  it('when every target is in the workspace, then the policy is stored as given and read back', async () => {
    const m = await member();
    const given = [
      { delay_seconds: 1, targets: [{ type: 'user', id: m.id }] },
      {
        delay_seconds: 300,
        targets: [
          { type: 'schedule', id: await schedule(ws.organizationId) },
          { type: 'team', id: ws.teamId },
        ],
      },
    ];
    const p = await createEscalationPolicy(orm, {
      organizationId: ws.organizationId,
      name: 'Primary',
      steps: given as never,
      repeat: 2,
      ackTimeoutSeconds: 1800,
    });
    expect(p).toEqual({ id: expect.any(String), name: 'Primary', steps: given, repeat: 2, ack_timeout_seconds: 1800 });
    expect(await getEscalationPolicy(orm, p.id)).toEqual({ ...p, organization_id: ws.organizationId });
    await expect(getEscalationPolicy(orm, p.id, other.organizationId)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('when targets are in another workspace or do not exist, then each is named and nothing is stored', async () => {
    const outsider = await addMember(orm, other.organizationId, 'MEMBER');
    const bad = [
      { type: 'user', id: outsider.id },
      { type: 'schedule', id: await schedule(other.organizationId) },
      { type: 'team', id: other.teamId },
      { type: 'team', id: randomUUID() },
    ];
    const err = await refusedWithoutWrites('escalation_policies', () =>
      createEscalationPolicy(orm, {
        organizationId: ws.organizationId,
        name: 'X',
        steps: [{ delay_seconds: 5, targets: [{ type: 'team', id: ws.teamId }] }, ...steps(bad)] as never,
        repeat: 0,
      }),
    );
    expect(err).toMatchObject({ kind: 'invalid', code: 'unknown_target' });
    expect(err.message.split('; ')).toEqual([
      `steps[1].targets[0]: user ${outsider.id} is not a member of this workspace`,
      `steps[1].targets[1]: schedule ${bad[1].id} is not a schedule of this workspace`,
      `steps[1].targets[2]: team ${other.teamId} is not a team of this workspace`,
      `steps[1].targets[3]: team ${bad[3].id} is not a team of this workspace`,
    ]);
  });

  it('when numbers are out of range or the workspace is unknown, then refused and nothing stored', async () => {
    const ok = steps([{ type: 'team', id: ws.teamId }]);
    const create = (over: object) => () =>
      createEscalationPolicy(orm, { organizationId: ws.organizationId, name: 'N', steps: ok as never, repeat: 0, ...over });
    expect((await refusedWithoutWrites('escalation_policies', create({ repeat: 10 }))).message).toBe('repeat: must be at most 9');
    expect((await refusedWithoutWrites('escalation_policies', create({ ackTimeoutSeconds: 86_401 }))).message).toBe(
      'ackTimeoutSeconds: must be at most 86400 seconds',
    );
    expect((await refusedWithoutWrites('escalation_policies', create({ steps: [{ delay_seconds: 0, targets: [] }] }))).message).toBe(
      'steps[0].delay_seconds: must be at least 1 seconds; steps[0].targets: needs at least one target',
    );
    expect(await refusedWithoutWrites('escalation_policies', create({ organizationId: randomUUID() }))).toMatchObject({ kind: 'not_found' });
  });

  it('when a service is given a policy of its workspace, then it pages with it; another workspace’s policy is refused', async () => {
    const p = await createEscalationPolicy(orm, {
      organizationId: ws.organizationId,
      name: 'Svc',
      steps: steps([{ type: 'team', id: ws.teamId }]) as never,
      repeat: 0,
    });
    expect(await policyOfService(orm, ws.serviceId)).toBeNull();
    expect(await setServicePolicy(orm, { serviceId: ws.serviceId, policyId: p.id })).toEqual({ service_id: ws.serviceId, escalation_policy_id: p.id });
    expect(await policyOfService(orm, ws.serviceId)).toMatchObject({ id: p.id, name: 'Svc' });

    const foreign = await createEscalationPolicy(orm, {
      organizationId: other.organizationId,
      name: 'Other',
      steps: steps([{ type: 'team', id: other.teamId }]) as never,
      repeat: 0,
    });
    await expect(setServicePolicy(orm, { serviceId: ws.serviceId, policyId: foreign.id })).rejects.toThrow(
      `escalation policy ${foreign.id} belongs to another workspace than service ${ws.serviceId}`,
    );
    await expect(setServicePolicy(orm, { serviceId: randomUUID(), policyId: p.id })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(setServicePolicy(orm, { serviceId: ws.serviceId, policyId: 'nope' })).rejects.toMatchObject({ kind: 'invalid' });
    expect((await policyOfService(orm, ws.serviceId))?.id).toBe(p.id);
  });
});

describe('team members', () => {
  it('when a workspace member is added twice, then the team has them once; someone who left is no longer paged', async () => {
    const [a, b] = [await member(), await member()];
    const first = await addTeamMember(orm, { teamId: ws.teamId, email: a.email });
    expect(first).toEqual({ team_id: ws.teamId, user_id: a.id, email: a.email });
    expect(await addTeamMember(orm, { teamId: ws.teamId, email: a.email })).toEqual(first);
    await addTeamMember(orm, { teamId: ws.teamId, email: b.email });
    expect(await teamMemberIds(orm, ws.teamId)).toEqual([a.id, b.id]);
    await knexOf(orm)('memberships').where({ user_id: b.id, organization_id: ws.organizationId }).delete();
    expect(await teamMemberIds(orm, ws.teamId)).toEqual([a.id]);
  });

  it('when the person is not in the team’s workspace or the team is unknown, then refused and nothing stored', async () => {
    const outsider = await addMember(orm, other.organizationId, 'MEMBER');
    expect((await refusedWithoutWrites('team_members', () => addTeamMember(orm, { teamId: ws.teamId, email: outsider.email }))).message).toMatch(
      /is not a member of workspace/,
    );
    expect(await refusedWithoutWrites('team_members', () => addTeamMember(orm, { teamId: randomUUID(), email: outsider.email }))).toMatchObject({
      kind: 'not_found',
    });
    expect(await teamMemberIds(orm, 'not-a-uuid')).toEqual([]);
  });
});
