import { randomUUID } from 'node:crypto';
import type { RecordTransitionInput } from '../../activities/projections';
import { alertsReceivedSignal, escalateNowSignal } from '../../src/contracts/workflows';
import { sleep, waitFor } from '../support/wait';
import { useStubbedIncidents } from './incident-harness';
import { job, policyPlan } from './paging-stubs';

// What stops, restarts and moves an escalation. Real timers, small delays (docs/architecture.md, "Testing").
const incidents = useStubbedIncidents();
const stepAt = (call: { input: { at: string } }) => Date.parse(call.input.at);
/** Step 1 pages ann (by email now, by SMS after 2 s), step 2 pages bob. */
const annThenBob = (step: number) => (step === 0 ? [job('ann', 'email', 0), job('ann', 'sms', 2)] : [job('bob', 'voice')]);

describe('what stops and restarts an escalation (stub activities)', () => {
  it('when the incident is acknowledged, then no page starts after the update returns, rule delays and later steps included', async () => {
    const inc = await incidents.start({ plan: policyPlan([2, 1], 1), recipients: annThenBob });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    expect((await inc.update('acknowledge')).status).toBe('ACKNOWLEDGED');
    const acknowledgedAt = Date.now();
    await sleep(3500); // past ann's SMS (2 s) and step 2 (2 s)

    expect(inc.stubs.pages.map((p) => p.job.channel)).toEqual(['email']);
    for (const page of inc.stubs.pages) expect(page.at).toBeLessThan(acknowledgedAt);
    expect(inc.stubs.of('stepRecipients')).toHaveLength(1);
  });

  it('when the incident is resolved, then paging stops, and closing it completes the workflow with no page', async () => {
    const inc = await incidents.start({ plan: policyPlan([1, 1], 3), recipients: annThenBob });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    await inc.update('resolve');
    await sleep(2500);
    await inc.update('close');
    await inc.handle.result();

    expect(inc.stubs.pages.map((p) => [p.step, p.job.userId, p.job.channel])).toEqual([[0, 'ann', 'email']]);
  });

  it('when a resolved incident is reopened, then the escalation starts again at step 1 with a fresh plan', async () => {
    const inc = await incidents.start({ plan: policyPlan([2, 2]), recipients: (step) => [job(step === 0 ? 'ann' : 'bob')] });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    await inc.update('resolve');
    await inc.update('reopen');
    await waitFor(async () => inc.stubs.pages.length === 2, 15_000, 'the page after the reopen');

    expect(inc.stubs.pages.map((p) => [p.step, p.job.userId])).toEqual([
      [0, 'ann'],
      [0, 'ann'],
    ]);
    expect(inc.stubs.of('planEscalation')).toHaveLength(2);
    // Step 1's decision took 2 and its page 3; the reopen moved seq to 5 (resolve 4, reopen 5):
    // the new spell's decision takes 6 and its page 7.
    expect(inc.stubs.pages.map((p) => p.seq)).toEqual([3, 7]);
  });

  it('when an acknowledgement times out, then the incident returns to TRIGGERED as the system and step 1 pages again', async () => {
    const inc = await incidents.start({ plan: policyPlan([3, 3], 0, 1), recipients: (step) => [job(step === 0 ? 'ann' : 'bob')] });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    await inc.update('acknowledge');
    const acknowledgedAt = Date.now();
    await waitFor(async () => inc.stubs.pages.length === 2, 15_000, 'the page after the timeout');

    const moves = inc.stubs.of<RecordTransitionInput>('recordTransition').map((m) => m.input);
    expect(moves.map((m) => [m.operation, m.from, m.to, m.actor.type, m.actor.via])).toEqual([
      ['acknowledge', 'TRIGGERED', 'ACKNOWLEDGED', 'user', 'test'],
      ['ack_timeout', 'ACKNOWLEDGED', 'TRIGGERED', 'system', 'ack_timeout'],
    ]);
    expect(Date.parse(moves[1].at) - Date.parse(moves[0].at)).toBeGreaterThanOrEqual(1000);
    expect(inc.stubs.pages[1].at - acknowledgedAt).toBeGreaterThanOrEqual(900);
    expect(inc.stubs.pages.map((p) => [p.step, p.job.userId])).toEqual([
      [0, 'ann'],
      [0, 'ann'],
    ]);
  });

  it('when an acknowledgement times out after every step has paged, then step 1 pages again', async () => {
    const inc = await incidents.start({ plan: policyPlan([1], 0, 1), recipients: () => [job('ann')] });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    await sleep(300); // the one-step policy has nothing left to do
    await inc.update('acknowledge');
    await waitFor(async () => inc.stubs.pages.length === 2, 15_000, 'the page after the timeout');

    expect(inc.stubs.pages.map((p) => [p.step, p.job.userId])).toEqual([
      [0, 'ann'],
      [0, 'ann'],
    ]);
    expect(inc.stubs.of('planEscalation')).toHaveLength(2);
  });

  it('when a responder asks to escalate now, then the next step pages at once instead of after its delay', async () => {
    const inc = await incidents.start({ plan: policyPlan([60, 60]), recipients: (step) => [job(step === 0 ? 'ann' : 'bob')] });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    const askedAt = Date.now();
    await inc.handle.signal(escalateNowSignal, { actor: { type: 'user', id: randomUUID(), via: 'voice' } });
    await waitFor(async () => inc.stubs.pages.length === 2, 15_000, 'the step 2 page');

    expect(inc.stubs.pages.map((p) => [p.step, p.job.userId])).toEqual([
      [0, 'ann'],
      [1, 'bob'],
    ]);
    expect(inc.stubs.pages[1].at - askedAt).toBeLessThan(3000);
  });

  it('when the run continues as new between two steps, then the new run sends step 2 on time without planning again', async () => {
    const inc = await incidents.start({ plan: policyPlan([4, 4]), recipients: (step) => [job(step === 0 ? 'ann' : 'bob')] }, { historyLimit: 40 });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    const firstRun = inc.stubs.pages[0].runId;
    // Attached alerts grow the history past the limit while step 2 waits.
    for (let i = 0; i < 20 && (await inc.handle.describe()).runId === firstRun; i++) {
      await inc.handle.signal(alertsReceivedSignal, { events: [{ eventId: randomUUID(), kind: 'attached', title: `flap ${i}` }] });
      await sleep(50);
    }
    expect((await inc.handle.describe()).runId).not.toBe(firstRun);
    await waitFor(async () => inc.stubs.pages.length === 2, 15_000, 'the step 2 page');

    const [ann, bob] = inc.stubs.pages;
    expect([bob.step, bob.job.userId]).toEqual([1, 'bob']);
    expect(bob.runId).not.toBe(firstRun);
    expect(inc.stubs.of('planEscalation')).toHaveLength(1);
    const steps = inc.stubs.of<{ at: string }>('stepRecipients');
    expect(stepAt(steps[1]) - stepAt(steps[0])).toBeGreaterThanOrEqual(4000);
    expect(stepAt(steps[1]) - stepAt(steps[0])).toBeLessThan(6000);
    // Every attached alert took a seq in the first run; the new run carries on after them and
    // never reuses one. (How the alerts batch into writes varies with the machine's load.)
    const attachedSeqs = inc.stubs.of<{ firstSeq: number; alerts: unknown[] }>('recordAlertsAttached').map((c) => c.input.firstSeq + c.input.alerts.length - 1);
    expect(attachedSeqs.length).toBeGreaterThan(0);
    expect(bob.seq).toBeGreaterThan(Math.max(ann.seq, ...attachedSeqs));
  });
});
