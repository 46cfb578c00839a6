import { ApplicationFailure } from '@temporalio/common';
import { sleep, waitFor } from '../support/wait';
import { useStubbedIncidents } from './incident-harness';
import { job, policyPlan } from './paging-stubs';

// Real Temporal timers with delays of 1–3 s: the time-skipping test server cannot be
// downloaded here (docs/architecture.md, "Testing"). Lower bounds are exact (a timer never fires early); upper
// bounds leave room for a busy 2-core machine.
const incidents = useStubbedIncidents();
const stepAt = (call: { input: { at: string } }) => Date.parse(call.input.at);

describe('escalation in the incident workflow (stub activities)', () => {
  it('when nobody answers a two-step policy, then step 1 pages, step 2 pages one step delay later, and nothing follows', async () => {
    const { stubs } = await incidents.start({ plan: policyPlan([1, 1]), recipients: (step) => [job(`user${step}`)] });
    await waitFor(async () => stubs.pages.length >= 2, 15_000, 'two pages');
    await sleep(2000);

    // Each step's decision entry takes a seq before its pages.
    expect(stubs.pages.map((p) => [p.step, p.job.userId, p.seq])).toEqual([
      [0, 'user0', 3],
      [1, 'user1', 5],
    ]);
    const steps = stubs.of<{ step: number; at: string; cycle: number; decisionSeq: number }>('stepRecipients');
    expect(steps.map((s) => [s.input.step, s.input.cycle, s.input.decisionSeq])).toEqual([
      [0, 0, 2],
      [1, 0, 4],
    ]);
    expect(stepAt(steps[1]) - stepAt(steps[0])).toBeGreaterThanOrEqual(1000);
    expect(stepAt(steps[1]) - stepAt(steps[0])).toBeLessThan(2500);
    expect(stubs.of('planEscalation')).toHaveLength(1);
  });

  it('when the policy repeats twice, then its one step pages three times a step delay apart, then stops', async () => {
    const { stubs } = await incidents.start({ plan: policyPlan([1], 2), recipients: () => [job('ann')] });
    await waitFor(async () => stubs.pages.length >= 3, 15_000, 'three pages');
    await sleep(2000);

    expect(stubs.pages.map((p) => p.step)).toEqual([0, 0, 0]);
    expect(new Set(stubs.pages.map((p) => p.notificationId)).size).toBe(3);
    // Each pass's decision says which repeat it is.
    expect(stubs.of<{ cycle: number }>('stepRecipients').map((s) => s.input.cycle)).toEqual([0, 1, 2]);
    const at = stubs.of<{ at: string }>('stepRecipients').map(stepAt);
    expect(at).toHaveLength(3);
    for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(1000);
  });

  it('when a step has rules with different delays, then each page is sent when its own delay after the step is due', async () => {
    const rules = [job('ann', 'push_ios', 0), job('ann', 'sms', 1), job('ann', 'voice', 2)];
    const { stubs } = await incidents.start({ plan: policyPlan([30]), recipients: () => rules });
    await waitFor(async () => stubs.pages.length >= 3, 15_000, 'three pages');

    expect(stubs.pages.map((p) => p.job.channel)).toEqual(['push_ios', 'sms', 'voice']);
    const [step] = stubs.of<{ at: string }>('stepRecipients');
    stubs.pages.forEach((page, i) => {
      // Same host clock for the workflow's time and the stub's; a few ms for its rounding.
      expect(page.at - stepAt(step)).toBeGreaterThanOrEqual(rules[i].delaySeconds * 1000 - 20);
      expect(page.at - stepAt(step)).toBeLessThan(rules[i].delaySeconds * 1000 + 1500);
    });
    expect(stubs.pages.map((p) => p.seq)).toEqual([3, 4, 5]);
  });

  it('when the plan is `none`, then nobody is paged and recipients are never looked up', async () => {
    const { stubs } = await incidents.start({ plan: { kind: 'none', stepDelays: [], repeat: 0, ackTimeoutSeconds: null }, recipients: () => [job('ann')] });
    await waitFor(async () => stubs.of('planEscalation').length === 1, 15_000, 'the plan');
    await sleep(1500);

    expect(stubs.of('stepRecipients')).toEqual([]);
    expect(stubs.pages).toEqual([]);
  });

  it('when sendPage keeps failing until a non-retryable error, then recordPageFailed gets the reason and the escalation goes on', async () => {
    const { stubs } = await incidents.start({
      plan: policyPlan([1, 1]),
      recipients: (step) => [job(step === 0 ? 'ann' : 'bob')],
      sendPage: async (input, attempt) => {
        if (input.job.userId === 'bob') return { status: 'sent', channel: 'sms', target: input.job.address, error: null, fallbackReason: null };
        if (attempt < 4) throw new Error('provider answered 503');
        throw ApplicationFailure.nonRetryable('the number is not reachable', 'ProviderRejected');
      },
    });
    await waitFor(async () => stubs.of('recordPageFailed').length === 1, 20_000, 'the failure record');

    const ann = stubs.pages.filter((p) => p.job.userId === 'ann');
    expect(ann).toHaveLength(4); // three failures, then the permanent one
    expect(new Set(ann.map((p) => `${p.notificationId}/${p.seq}`)).size).toBe(1);
    // The first attempt runs in the workflow task; the retried activity takes over at once, then
    // backs off by its retry policy: 1 s, then 2 s.
    expect(ann[1].at - ann[0].at).toBeLessThan(900);
    expect(ann[2].at - ann[1].at).toBeGreaterThanOrEqual(900);
    expect(ann[3].at - ann[2].at).toBeGreaterThanOrEqual(1900);
    const failed = stubs.of<{ notificationId: string; seq: number; step: number; reason: string }>('recordPageFailed');
    expect(failed.map((f) => f.input)).toEqual([
      expect.objectContaining({ notificationId: ann[0].notificationId, seq: ann[0].seq, step: 0, reason: 'the number is not reachable' }),
    ]);
    // Step 2 kept its time while step 1's page was still retrying.
    const bob = stubs.pages.filter((p) => p.job.userId === 'bob');
    expect(bob.map((p) => p.step)).toEqual([1]);
    expect(bob[0].at).toBeLessThan(ann[3].at);
  });
  it("when a page's first attempt fails for good (non-retryable), then it is not retried and recordPageFailed gets the reason", async () => {
    const { stubs } = await incidents.start({
      plan: policyPlan([60]),
      recipients: () => [job('ann')],
      sendPage: async () => {
        throw ApplicationFailure.nonRetryable('incident has no projection', 'IncidentNotFound');
      },
    });
    await waitFor(async () => stubs.of('recordPageFailed').length === 1, 15_000, 'the failure record');
    await sleep(1500);
    expect(stubs.pages).toHaveLength(1);
    expect(stubs.of<{ reason: string }>('recordPageFailed').map((f) => f.input.reason)).toEqual(['incident has no projection']);
  });
});
