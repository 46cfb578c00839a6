import { CHANNEL_IDS } from '../../../src/domain/channels';
import { contactInputSchema, parseWith, policyInputSchema, ruleInputSchema, targetsWithPaths } from '../../../src/domain/paging/config';

const ORG = '6f1c1c1e-3b0a-4d8e-9a43-3c1c2b9e7a10';
const USER = '0b7f3c51-8a1e-4c3a-b0e7-2f9d8c6a5e41';
const step = (delay_seconds: unknown, targets: unknown = [{ type: 'user', id: USER }]) => ({ delay_seconds, targets });
const policy = (over: Record<string, unknown> = {}) => ({ organizationId: ORG, name: 'Primary', steps: [step(60)], repeat: 1, ...over });
const failure = (r: { ok: boolean; message?: string }) => (r.ok ? 'accepted' : r.message);

describe('contact inputs', () => {
  it('when a contact input is valid, then type and address come out normalised and label defaults to null', () => {
    const r = parseWith(contactInputSchema, { email: 'A@Example.test', type: 'SMS', address: '+1 415 555 0100' });
    expect(r).toEqual({ ok: true, value: { email: 'a@example.test', type: 'sms', address: '+14155550100', label: null } });
  });

  it('when a contact input has an unknown type or a bad workspace id, then each field is named', () => {
    expect(failure(parseWith(contactInputSchema, { email: 'a@example.test', type: 'pager', address: 'x' }))).toMatch(
      new RegExp(`^type: must be one of ${CHANNEL_IDS.join(', ')}$`),
    );
    expect(failure(parseWith(contactInputSchema, { email: 'a@example.test', type: 'sms', address: '+14155550100', organizationId: 'acme' }))).toMatch(
      /organizationId: must be a workspace id \(UUID\)/,
    );
    expect(failure(parseWith(contactInputSchema, { email: 'a@example.test', type: 'sms', address: '12' }))).toMatch(/^address: /);
  });
});

describe('notification rules', () => {
  it.each([
    [0, 'accepted'],
    [86_400, 'accepted'],
    [-1, 'delaySeconds: must be at least 0 seconds'],
    [86_401, 'delaySeconds: must be at most 86400 seconds'],
    [1.5, 'delaySeconds: must be a whole number'],
    ['60', 'delaySeconds: must be a number'],
  ])('when the delay is %j, then %s', (delaySeconds, outcome) => {
    expect(failure(parseWith(ruleInputSchema, { email: 'a@example.test', contactMethodId: USER, delaySeconds }))).toBe(outcome);
  });
});

describe('escalation policies', () => {
  it('when a policy is valid, then unknown step keys are dropped, repeat defaults to 0 and no ack timeout is null', () => {
    const r = parseWith(policyInputSchema, { organizationId: ORG, name: ' Primary ', steps: [{ ...step(60), note: 'x' }] });
    expect(r).toEqual({ ok: true, value: { organizationId: ORG, name: 'Primary', steps: [step(60)], repeat: 0, ackTimeoutSeconds: null } });
  });

  it.each([
    ['no steps', { steps: [] }, 'steps: needs at least one step'],
    ['steps that are not a list', { steps: { delay_seconds: 1 } }, 'steps: must be a list of steps'],
    ['a step without targets', { steps: [step(60, [])] }, 'steps[0].targets: needs at least one target'],
    ['a zero delay', { steps: [step(60), step(0)] }, 'steps[1].delay_seconds: must be at least 1 seconds'],
    ['a delay over a day', { steps: [step(86_401)] }, 'steps[0].delay_seconds: must be at most 86400 seconds'],
    ['an unknown target type', { steps: [step(5, [{ type: 'group', id: USER }])] }, 'steps[0].targets[0].type: must be one of user, schedule, team'],
    ['a target id that is not a UUID', { steps: [step(5, [{ type: 'user', id: 'bob' }])] }, 'steps[0].targets[0].id: must be an id (UUID)'],
    ['repeat 10', { repeat: 10 }, 'repeat: must be at most 9'],
    ['a negative repeat', { repeat: -1 }, 'repeat: must be at least 0'],
    ['an ack timeout of 0', { ackTimeoutSeconds: 0 }, 'ackTimeoutSeconds: must be at least 1 seconds'],
    ['an empty name', { name: '  ' }, 'name: is required'],
  ])('when given %s, then the error names the field: %s', (_name, over, message) => {
    expect(failure(parseWith(policyInputSchema, policy(over)))).toBe(message);
  });

  it('when several fields are wrong, then every one is reported on one line', () => {
    const message = failure(parseWith(policyInputSchema, policy({ repeat: 99, steps: [step(0)] })));
    expect(message).toContain('steps[0].delay_seconds');
    expect(message).toContain('repeat');
    expect(message).not.toContain('\n');
  });

  it('when targets are listed, then each carries its place in the steps', () => {
    const steps = [
      step(1, [{ type: 'user', id: USER }]),
      step(2, [
        { type: 'team', id: ORG },
        { type: 'schedule', id: USER },
      ]),
    ] as never;
    expect(targetsWithPaths(steps).map((t) => `${t.path}=${t.type}`)).toEqual([
      'steps[0].targets[0]=user',
      'steps[1].targets[0]=team',
      'steps[1].targets[1]=schedule',
    ]);
  });
});
