import type { RecordTransitionInput } from '../../activities/projections';
import { alertsReceivedSignal, incidentStateQuery } from '../../src/contracts/workflows';
import { sleep, waitFor } from '../support/wait';
import { useStubbedIncidents } from './incident-harness';
import { job, policyPlan } from './paging-stubs';

// A sender's acknowledge (docs/compat-intake.md) reaching the incident workflow through the outbox. Real timers, stub activities.
const incidents = useStubbedIncidents();
const acknowledged = (eventId: string) => ({ eventId, kind: 'acknowledged' as const, title: 'CPU high', detail: 'via PagerDuty Events API' });

describe('a sender acknowledges an incident (stub activities)', () => {
  it('when a TRIGGERED incident hears an acknowledged event, then it moves as ingestion with the sender’s detail and its paging stops', async () => {
    const inc = await incidents.start({ plan: policyPlan([2, 1], 1), recipients: (step) => [job(step === 0 ? 'ann' : 'bob')] });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    await inc.handle.signal(alertsReceivedSignal, { events: [acknowledged('ack-1')] });
    await waitFor(async () => (await inc.handle.query(incidentStateQuery)).status === 'ACKNOWLEDGED', 10_000, 'the acknowledge');
    await sleep(2500); // past step 2

    const moves = inc.stubs.of<RecordTransitionInput>('recordTransition').map((m) => m.input);
    expect(moves).toEqual([
      expect.objectContaining({
        operation: 'acknowledge',
        from: 'TRIGGERED',
        to: 'ACKNOWLEDGED',
        actor: { type: 'system', id: null, via: 'ingest' },
        eventId: 'ack-1',
        detail: 'via PagerDuty Events API',
      }),
    ]);
    expect(inc.stubs.pages.map((p) => p.job.userId)).toEqual(['ann']);
    expect(inc.stubs.of('recordAlertsAttached')).toHaveLength(0);
  });

  it('when the incident is no longer TRIGGERED, or the event was applied, then an acknowledged event changes nothing and is not an alert', async () => {
    const inc = await incidents.start({ plan: policyPlan([60]), recipients: () => [job('ann')] });
    await inc.update('investigate');
    await inc.handle.signal(alertsReceivedSignal, { events: [acknowledged('ack-2')] });
    await inc.handle.signal(alertsReceivedSignal, { events: [acknowledged('ack-2'), { eventId: 'a-1', kind: 'attached', title: 'later alert' }] });
    await waitFor(async () => inc.stubs.of('recordAlertsAttached').length === 1, 10_000, 'the later alert');

    expect(inc.stubs.of<RecordTransitionInput>('recordTransition').map((m) => m.input.operation)).toEqual(['investigate']);
    expect(inc.stubs.of<{ alerts: Array<{ eventId: string }> }>('recordAlertsAttached').map((c) => c.input.alerts.map((a) => a.eventId))).toEqual([['a-1']]);
    expect((await inc.handle.query(incidentStateQuery)).status).toBe('INVESTIGATING');
  });
});
