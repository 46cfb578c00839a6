import { randomUUID } from 'node:crypto';
import { alertsReceivedSignal, escalateNowSignal, lifecycleUpdates } from '../../src/contracts/workflows';
import { sleep, waitFor } from '../support/wait';
import { useStubbedIncidents } from './incident-harness';
import { job, policyPlan } from './paging-stubs';

const incidents = useStubbedIncidents();

describe('escalation regressions', () => {
  it('when escalateNow arrives while a page of the step is still being sent, then the next step pages at once', async () => {
    const inc = await incidents.start({
      plan: policyPlan([20, 20]),
      recipients: (step) => [job(step === 0 ? 'ann' : 'bob')],
      sendPage: async (input) => {
        if (input.job.userId === 'ann') await sleep(2000);
        return { status: 'sent', channel: 'sms', target: input.job.address, error: null, fallbackReason: null };
      },
    });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    const askedAt = Date.now();
    await inc.handle.signal(escalateNowSignal, { actor: { type: 'user', id: 'u', via: 'voice' } });
    await sleep(6000);
    expect(inc.stubs.pages.map((p) => [p.step, p.job.userId])).toEqual([
      [0, 'ann'],
      [1, 'bob'],
    ]);
    expect(inc.stubs.pages[1].at - askedAt).toBeLessThan(4000);
  });

  it('when a reopen follows an escalation that paged every step, then step 1 pages again', async () => {
    const inc = await incidents.start({ plan: policyPlan([1]), recipients: () => [job('ann')] });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    await sleep(500);
    await inc.update('resolve');
    await inc.update('reopen');
    await sleep(3000);
    expect(inc.stubs.pages.map((p) => [p.step, p.job.userId])).toEqual([
      [0, 'ann'],
      [0, 'ann'],
    ]);
  });

  it('when an ack times out after the escalation paged every step, then step 1 pages again', async () => {
    const inc = await incidents.start({ plan: policyPlan([1], 0, 1), recipients: () => [job('ann')] });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    await sleep(500);
    await inc.update('acknowledge');
    await sleep(3500);
    expect(inc.stubs.of('recordTransition').length).toBe(2);
    expect(inc.stubs.pages.map((p) => [p.step, p.job.userId])).toEqual([
      [0, 'ann'],
      [0, 'ann'],
    ]);
  });

  it('when step 1 page is retrying, then step 2 still pages on time', async () => {
    const inc = await incidents.start({
      plan: policyPlan([1, 1]),
      recipients: (step) => [job(step === 0 ? 'ann' : 'bob')],
      sendPage: async (input, attempt) => {
        if (input.job.userId === 'ann' && attempt < 4) throw new Error('provider answered 503');
        return { status: 'sent', channel: 'sms', target: input.job.address, error: null, fallbackReason: null };
      },
    });
    await waitFor(async () => inc.stubs.pages.some((p) => p.job.userId === 'bob'), 30_000, 'bob');
    const steps = inc.stubs.of<{ at: string }>('stepRecipients').map((s) => Date.parse(s.input.at));
    expect(steps[1] - steps[0]).toBeLessThan(2000);
  }, 40_000);

  it('when an ack arrives in the activation where a page falls due, then that page is not started after the ack', async () => {
    const inc = await incidents.start({ plan: policyPlan([30]), recipients: () => [job('ann', 'email', 0), job('ann', 'sms', 2)], attachDelayMs: 2500 });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    const first = inc.stubs.pages[0].at;
    await sleep(Math.max(0, first + 1000 - Date.now()));
    // A slow alert write holds the workflow task open across the SMS's due time (2 s) ...
    await inc.handle.signal(alertsReceivedSignal, { events: [{ eventId: randomUUID(), kind: 'attached', title: 'slow' }] });
    await sleep(300);
    // ... so the ack and the timer land in one activation.
    const snap = await inc.handle.executeUpdate(lifecycleUpdates.acknowledge, { args: [{ actor: { type: 'user', id: 'u', via: 'test' } }] });
    const ackedAt = Date.now();
    expect(snap.status).toBe('ACKNOWLEDGED');
    await sleep(2000);
    for (const p of inc.stubs.pages) expect(p.at).toBeLessThan(ackedAt);
  });
});
