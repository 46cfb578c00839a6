import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  formFromPolicy,
  formToBody,
  minutesToSeconds,
  moveStep,
  newStep,
  placeServerError,
  secondsToMinutes,
  summariseSteps,
  type Policy,
} from './policy-form';

const policy: Policy = {
  id: 'p1',
  name: 'Checkout',
  repeat: 2,
  ack_timeout_seconds: null,
  steps: [
    { delay_seconds: 300, targets: [{ type: 'user', id: 'u1' }] },
    {
      delay_seconds: 100,
      targets: [
        { type: 'team', id: 't1' },
        { type: 'schedule', id: 's1' },
      ],
    },
  ],
};

describe('minutes and seconds', () => {
  it('when minutes are typed, then they become whole seconds; text that is not a number is undefined', () => {
    expect(minutesToSeconds('5')).toBe(300);
    expect(minutesToSeconds(' 0.5 ')).toBe(30);
    expect(minutesToSeconds('1,5')).toBe(90);
    expect(minutesToSeconds('.25')).toBe(15);
    expect(minutesToSeconds('')).toBeUndefined();
    expect(minutesToSeconds('-1')).toBeUndefined();
    expect(minutesToSeconds('5 min')).toBeUndefined();
  });

  it('when seconds are shown as minutes and saved again, then they come back unchanged', () => {
    expect(secondsToMinutes(300)).toBe('5');
    expect(secondsToMinutes(90)).toBe('1.5');
    for (const seconds of [1, 59, 100, 301, 86_400]) expect(minutesToSeconds(secondsToMinutes(seconds))).toBe(seconds);
  });
});

describe('form ↔ body', () => {
  it('when a policy is loaded into the form and saved unchanged, then the body is the policy without its id', () => {
    const { id: _id, ...body } = policy;
    expect(formToBody(formFromPolicy(policy))).toEqual({ body });
  });

  it('when the timeout is empty it is null (never); when it is not a number, nothing is sent', () => {
    const form = formFromPolicy({ ...policy, ack_timeout_seconds: 600 });
    expect(formToBody(form).body?.ack_timeout_seconds).toBe(600);
    expect(formToBody({ ...form, ackTimeoutMinutes: '  ' }).body?.ack_timeout_seconds).toBeNull();
    expect(formToBody({ ...form, ackTimeoutMinutes: 'never' }).errors?.ackTimeout).toMatch(/number of minutes/);
  });

  it('when one step’s delay is not a number, then the error is on that step only', () => {
    const form = formFromPolicy(policy);
    form.steps[1] = { ...form.steps[1], delayMinutes: 'x' };
    expect(formToBody(form)).toEqual({ errors: { step: { 1: { delay: expect.stringMatching(/number of minutes/) } } } });
  });

  it('when a step is moved, then the others keep their places; at either end nothing moves', () => {
    const steps = [newStep(), newStep(), newStep()];
    expect(moveStep(steps, 2, -1).map((s) => s.key)).toEqual([steps[0].key, steps[2].key, steps[1].key]);
    expect(moveStep(steps, 0, -1)).toBe(steps);
    expect(moveStep(steps, 2, 1)).toBe(steps);
  });
});

describe('placeServerError', () => {
  it('when the server names steps in either path style, then each message goes to its step and input', () => {
    const errors = placeServerError(
      'steps.1.delay_seconds: must be at least 1 seconds; steps[0].targets[1]: team t9 is not a team of this workspace; steps.0.targets: needs at least one target',
    );
    expect(errors.step[1]).toEqual({ delay: 'steps.1.delay_seconds: must be at least 1 seconds' });
    expect(errors.step[0]).toEqual({ targets: 'steps[0].targets[1]: team t9 is not a team of this workspace; steps.0.targets: needs at least one target' });
    expect(errors.form).toBeUndefined();
  });

  it('when the server names the policy’s own fields or the list of steps, then those get it', () => {
    expect(placeServerError('name: is required')).toEqual({ step: {}, name: 'name: is required' });
    expect(placeServerError('repeat: must be at most 9')).toEqual({ step: {}, repeat: 'repeat: must be at most 9' });
    expect(placeServerError('ack_timeout_seconds: must be at least 1 seconds').ackTimeout).toBe('ack_timeout_seconds: must be at least 1 seconds');
    expect(placeServerError('steps: needs at least one step')).toEqual({ step: {}, steps: 'steps: needs at least one step' });
  });

  it('when the message names no field, then it is kept whole for above the form, semicolons and all', () => {
    const message = 'escalation policy Checkout is used by 2 service(s): Cart, Pay; give them another policy first';
    expect(placeServerError(message)).toEqual({ step: {}, form: message });
  });
});

describe('summaries', () => {
  it('when durations are formatted, then they read as hours, minutes and seconds', () => {
    expect(formatDuration(30)).toBe('30 s');
    expect(formatDuration(300)).toBe('5 min');
    expect(formatDuration(5400)).toBe('1 h 30 min');
    expect(formatDuration(90)).toBe('1 min 30 s');
  });

  it('when steps are summarised, then targets and the waits between steps read in order', () => {
    const names: Record<string, string> = { u1: 'Ada', t1: 'Ops', s1: 'Primary' };
    expect(summariseSteps(policy.steps, (t) => names[t.id])).toBe('Ada → after 5 min → Ops, Primary');
  });
});
