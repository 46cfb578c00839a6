import { pagingDecision, type StepResolution } from '../../../src/domain/paging/decisions';

const policy = { id: 'p1', name: 'On call' };
const service = { id: 's1', name: 'API' };
const step = (over: Partial<StepResolution>): StepResolution => ({
  stepIndex: 0,
  cycle: 0,
  source: 'policy',
  service,
  policy,
  formB: null,
  targets: [],
  people: [],
  ...over,
});
const ann = {
  userId: 'u-ann',
  email: 'ann@x.test',
  pages: [
    { channel: 'sms', delaySeconds: 0 },
    { channel: 'voice', delaySeconds: 60 },
  ],
  disabled: [],
};
const bob = { userId: 'u-bob', email: 'bob@x.test', pages: [{ channel: 'email', delaySeconds: 0 }], disabled: [] };
const carol = { userId: 'u-carol', email: 'carol@x.test', pages: [], disabled: [{ channel: 'sms', address: '+15550001111', reason: 'invalid To number' }] };

describe('paging decisions', () => {
  it('when a step resolves to people, then the entry names each, where they came from and how they are paged, and who was not paged and why', () => {
    const { data, message } = pagingDecision(
      step({
        targets: [
          { type: 'user', id: 'u-ann', name: 'ann@x.test', userIds: ['u-ann'] },
          { type: 'schedule', id: 'sch', name: 'Primary', userIds: ['u-bob'] },
          { type: 'team', id: 't1', name: 'Ops', userIds: ['u-ann', 'u-carol'] },
        ],
        people: [ann, bob, carol],
      }),
    );
    expect(message).toBe(
      'Step 1 of policy "On call": paging ann@x.test (user; team "Ops") by SMS, Voice call after 60 s; bob@x.test (on call in schedule "Primary") by Email. ' +
        'Not paged: carol@x.test has no usable contact method (SMS +15550001111 disabled: invalid To number).',
    );
    expect(data).toMatchObject({ kind: 'step_resolved', step_number: 1, pass_number: 1, source: 'policy', policy, nobody_reasons: [] });
    expect(data.targets[1]).toEqual({ type: 'schedule', id: 'sch', name: 'Primary', users: [{ id: 'u-bob', email: 'bob@x.test' }], empty_reason: null });
    expect(data.paged.map((p) => [p.email, p.pages.map((pg) => pg.channel)])).toEqual([
      ['ann@x.test', ['sms', 'voice']],
      ['bob@x.test', ['email']],
    ]);
    expect(data.skipped).toEqual([{ user_id: 'u-carol', email: 'carol@x.test', reason: 'no_usable_contact_method', disabled_contacts: carol.disabled }]);
  });

  it('when a schedule has nobody on call and a team has no members, then it is "nobody to page" with both reasons', () => {
    const { data, message } = pagingDecision(
      step({
        stepIndex: 1,
        cycle: 2,
        targets: [
          { type: 'schedule', id: 'sch', name: 'Primary', userIds: [] },
          { type: 'team', id: 't1', name: 'Ops', userIds: [] },
        ],
      }),
    );
    expect(message).toBe('Nobody to page at step 2 (repeat 2) of policy "On call": schedule "Primary" has nobody on call; team "Ops" has no members.');
    expect(data).toMatchObject({ kind: 'nobody_to_page', step_number: 2, pass_number: 3, paged: [], skipped: [] });
    expect(data.targets.map((t) => t.empty_reason)).toEqual(['schedule "Primary" has nobody on call', 'team "Ops" has no members']);
  });

  it('when the service has no policy and its team has no members, then the entry says so', () => {
    const { data, message } = pagingDecision(step({ source: 'owning_team', policy: null, targets: [{ type: 'team', id: 't1', name: 'Ops', userIds: [] }] }));
    expect(message).toBe('Nobody to page: service "API" has no escalation policy, so its owning team is paged, and team "Ops" has no members.');
    expect(data).toMatchObject({ kind: 'nobody_to_page', source: 'owning_team', policy: null, nobody_reasons: ['team "Ops" has no members'] });
  });

  it('when the service has no policy and its team has members, then they are paged and the entry says why the team', () => {
    const { message } = pagingDecision(
      step({ source: 'owning_team', policy: null, service: null, targets: [{ type: 'team', id: 't1', name: 'Ops', userIds: ['u-bob'] }], people: [bob] }),
    );
    expect(message).toBe('The incident has no escalation policy, so its owning team is paged: paging bob@x.test (team "Ops") by Email.');
  });

  it('when everyone resolved has no usable contact method, then it is "nobody to page" naming each', () => {
    const { data, message } = pagingDecision(step({ targets: [{ type: 'team', id: 't1', name: 'Ops', userIds: ['u-carol'] }], people: [carol] }));
    expect(message).toBe(
      'Nobody to page at step 1 of policy "On call": carol@x.test has no usable contact method (SMS +15550001111 disabled: invalid To number).',
    );
    expect(data.kind).toBe('nobody_to_page');
  });

  it('when a target no longer exists, then the reason says so', () => {
    const { message } = pagingDecision(
      step({
        targets: [
          { type: 'user', id: 'u-gone', name: null, userIds: ['u-gone'] },
          { type: 'schedule', id: 'sch-gone', name: null, userIds: [] },
        ],
      }),
    );
    expect(message).toBe('Nobody to page at step 1 of policy "On call": user u-gone no longer exists; schedule sch-gone no longer exists.');
  });

  it("when a Form B source's channels page nobody at the incident's severity, then the reason names the channels and severity", () => {
    const { data, message } = pagingDecision(
      step({
        source: 'owning_team',
        policy: null,
        formB: { configured: ['sms'], severity: 'INFO', paging: [] },
        targets: [{ type: 'team', id: 't1', name: 'Ops', userIds: ['u-bob'] }],
        people: [{ ...bob, pages: [] }],
      }),
    );
    expect(message).toBe(
      'Nobody to page: service "API" has no escalation policy, so its owning team is paged, on the source\'s channels sms, and none of the source\'s channels (sms) pages for an info incident.',
    );
    expect(data.form_b).toEqual({ channels: ['sms'], severity: 'INFO', paging_channels: [] });
    expect(data.skipped[0].reason).toBe('no_contact_for_channels');
  });
});
