import type { AlertReceived } from '../../src/contracts/workflows';
import { planAlertBatch } from '../../workflows/incident/alert-batch';
import { AppliedEvents } from '../../workflows/incident/applied-events';

const ev = (eventId: string, kind: AlertReceived['kind'] = 'attached'): AlertReceived => ({ eventId, kind, title: `t-${eventId}` });
const alerts = (...idsOf: string[]) => idsOf.map((eventId) => ({ eventId, title: `t-${eventId}` }));

describe('planAlertBatch', () => {
  it('when a batch opens an incident and attaches alerts, then the opening is skipped and the attached ones are one write', () => {
    expect(planAlertBatch([ev('o', 'opened'), ev('a'), ev('b'), ev('c')], new AppliedEvents())).toEqual([{ kind: 'attach', alerts: alerts('a', 'b', 'c') }]);
  });

  it('when a resolve sits between attached alerts, then the runs before and after it are separate writes around the resolve', () => {
    expect(planAlertBatch([ev('a'), ev('b'), ev('r', 'resolved'), ev('c')], new AppliedEvents())).toEqual([
      { kind: 'attach', alerts: alerts('a', 'b') },
      { kind: 'resolve', eventId: 'r' },
      { kind: 'attach', alerts: alerts('c') },
    ]);
  });

  it('when some events were applied before, then only the new ones are planned, and a redelivered batch plans nothing', () => {
    const applied = new AppliedEvents(['a', 'c']);
    const batch = [ev('a'), ev('b'), ev('c'), ev('d'), ev('r', 'resolved')];
    expect(planAlertBatch(batch, applied)).toEqual([
      { kind: 'attach', alerts: alerts('b', 'd') },
      { kind: 'resolve', eventId: 'r' },
    ]);
    expect(planAlertBatch(batch, applied)).toEqual([]);
    expect(applied.toJSON()).toEqual(['a', 'c', 'b', 'd', 'r']);
  });

  it('when one batch repeats an event, then it is planned once', () => {
    expect(planAlertBatch([ev('a'), ev('a'), ev('b')], new AppliedEvents())).toEqual([{ kind: 'attach', alerts: alerts('a', 'b') }]);
  });

  it('when the window is full, then the oldest ids are forgotten first', () => {
    const applied = new AppliedEvents([], 3);
    planAlertBatch([ev('a'), ev('b'), ev('c'), ev('d')], applied);
    expect(applied.toJSON()).toEqual(['b', 'c', 'd']);
    expect(planAlertBatch([ev('a')], applied)).toEqual([{ kind: 'attach', alerts: alerts('a') }]);
  });
});

describe('planAlertBatch and a sender resolve', () => {
  it('when a resolve carries the seq it was accepted at, then its step keeps it, so the workflow can tell a stale one', () => {
    const applied = new AppliedEvents();
    expect(planAlertBatch([{ eventId: 'r', kind: 'resolved', title: 't', acceptedAtSeq: 7 }], applied)).toEqual([
      { kind: 'resolve', eventId: 'r', acceptedAtSeq: 7 },
    ]);
  });
});

describe('planAlertBatch and a sender acknowledge', () => {
  it('when an acknowledge sits between attached alerts, then it is a step of its own with how the sender asked', () => {
    const batch: AlertReceived[] = [ev('a'), { eventId: 'k', kind: 'acknowledged', title: 't', detail: 'via PagerDuty Events API' }, ev('b')];
    expect(planAlertBatch(batch, new AppliedEvents())).toEqual([
      { kind: 'attach', alerts: alerts('a') },
      { kind: 'acknowledge', eventId: 'k', detail: 'via PagerDuty Events API' },
      { kind: 'attach', alerts: alerts('b') },
    ]);
  });

  it('when a run predates sender acknowledges (replay without the patch), then an acknowledge is attached as that code did', () => {
    const batch: AlertReceived[] = [ev('a'), { eventId: 'k', kind: 'acknowledged', title: 't-k' }, ev('b')];
    expect(planAlertBatch(batch, new AppliedEvents(), { senderAcknowledge: false })).toEqual([{ kind: 'attach', alerts: alerts('a', 'k', 'b') }]);
  });

  it('when an acknowledge was applied before, then a redelivery plans nothing', () => {
    const applied = new AppliedEvents();
    expect(planAlertBatch([ev('k', 'acknowledged')], applied)).toEqual([{ kind: 'acknowledge', eventId: 'k' }]);
    expect(planAlertBatch([ev('k', 'acknowledged')], applied)).toEqual([]);
  });
});
