import { advanceStep, nextWakeMs, startCursor, takeDue, type EscalationPlan, type ScheduledPage } from '../../../src/domain/paging/escalation-plan';

const plan = (stepDelays: number[], repeat = 0): EscalationPlan => ({ kind: 'policy', stepDelays, repeat, ackTimeoutSeconds: null });
const page = (dueAtMs: number): ScheduledPage => ({
  notificationId: `n${dueAtMs}`,
  step: 0,
  dueAtMs,
  userId: 'u',
  contactMethodId: 'c',
  channel: 'sms',
  address: '+15550001111',
  delaySeconds: 0,
});

describe('escalation plan', () => {
  it('when an escalation starts, then step 1 pages at once', () => {
    expect(startCursor(plan([60, 120]), 1000)).toEqual({ plan: plan([60, 120]), step: 0, cycle: 0, nextStepAtMs: 1000, pending: [] });
  });

  it('when there is no policy, then nothing is ever due', () => {
    const cursor = startCursor({ kind: 'none', stepDelays: [], repeat: 0, ackTimeoutSeconds: null }, 1000);
    expect(nextWakeMs(cursor)).toBeNull();
  });

  it("when a step has paged, then the next step is due after that step's delay", () => {
    const after1 = advanceStep(startCursor(plan([60, 120]), 0), 5_000);
    expect(after1).toMatchObject({ step: 1, cycle: 0, nextStepAtMs: 65_000 });
    const after2 = advanceStep(after1, 65_000);
    expect(after2).toMatchObject({ step: 2, nextStepAtMs: null });
  });

  it("when the policy repeats, then the last step's delay leads back to step 1, as many times as it repeats", () => {
    let cursor = startCursor(plan([10, 20], 1), 0);
    cursor = advanceStep(cursor, 0); // step 1 paged
    cursor = advanceStep(cursor, 10_000); // step 2 paged
    expect(cursor).toMatchObject({ step: 0, cycle: 1, nextStepAtMs: 30_000 });
    cursor = advanceStep(advanceStep(cursor, 30_000), 40_000);
    expect(cursor).toMatchObject({ cycle: 1, nextStepAtMs: null });
  });

  it('when pages are pending, then those due go out and the earliest of the rest or the next step wakes the workflow', () => {
    const cursor = { ...startCursor(plan([100]), 0), nextStepAtMs: 50_000, pending: [page(1_000), page(2_000), page(70_000)] };
    const { due, cursor: rest } = takeDue(cursor, 1_500);
    expect(due.map((p) => p.dueAtMs)).toEqual([1_000]);
    expect(nextWakeMs(rest)).toBe(2_000);
    expect(nextWakeMs({ ...rest, pending: [page(70_000)] })).toBe(50_000);
    expect(nextWakeMs({ ...rest, pending: [], nextStepAtMs: null })).toBeNull();
  });
});
