import type { RecordTransitionInput } from '../../activities/projections';
import type { ResponderEntry } from '../../src/services/incident';
import { incidentStateQuery, snoozeIncidentUpdate } from '../../src/contracts/workflows';
import { sleep, waitFor } from '../support/wait';
import { useStubbedIncidents } from './incident-harness';
import { job, policyPlan } from './paging-stubs';

// A snooze (docs/responding.md) on the real incident workflow with stub activities and real timers.
const incidents = useStubbedIncidents();
/** Why an update was refused: the ApplicationFailure's message under WorkflowUpdateFailedError. */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: { cause?: { message?: string } }) => e.cause?.message,
  );
const actor = { type: 'user' as const, id: '00000000-0000-4000-8000-000000000001', via: 'test' };

describe('snoozing an acknowledged incident (stub activities)', () => {
  it('when an ACKNOWLEDGED incident is snoozed, then the entry is written, it stays ACKNOWLEDGED, and a TRIGGERED one is refused', async () => {
    const inc = await incidents.start({ plan: policyPlan([600]), recipients: () => [job('ann')] });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    expect(await refusal(inc.handle.executeUpdate(snoozeIncidentUpdate, { args: [{ actor, minutes: 30 }] }))).toMatch(
      /cannot snooze an incident that is TRIGGERED/,
    );
    await inc.update('acknowledge');
    const snoozed = await inc.handle.executeUpdate(snoozeIncidentUpdate, { args: [{ actor, minutes: 30 }] });

    expect(snoozed.entry).toMatchObject({ type: 'snooze', data: { minutes: 30 } });
    expect(Date.parse(snoozed.snoozed_until) - Date.parse(snoozed.entry.at)).toBe(30 * 60_000);
    const [written] = inc.stubs.of<ResponderEntry>('recordResponderEntry').map((c) => c.input);
    expect(written).toMatchObject({ type: 'snooze', actor, eventType: 'incident.snoozed' });
    expect((await inc.handle.query(incidentStateQuery)).status).toBe('ACKNOWLEDGED');
    expect(await refusal(inc.handle.executeUpdate(snoozeIncidentUpdate, { args: [{ actor, minutes: 0 }] }))).toMatch(/minutes must be 1 to 1440/);
  });

  it('when a snooze ends on its workflow timer, then the incident returns to TRIGGERED as the snooze and pages again from step 1', async () => {
    // A run resumed with a snooze (continueAsNew carries its end): the timer is the snooze's own.
    const inc = await incidents.start(
      { plan: policyPlan([600]), recipients: () => [job('ann')] },
      { status: 'ACKNOWLEDGED', seq: 5, snoozedUntilMs: Date.now() + 2000 },
    );
    await waitFor(async () => (await inc.handle.query(incidentStateQuery)).status === 'TRIGGERED', 15_000, 'the snooze to end');
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the page after the snooze');

    const moves = inc.stubs.of<RecordTransitionInput>('recordTransition').map((m) => m.input);
    expect(moves).toEqual([
      expect.objectContaining({ operation: 'snooze_end', from: 'ACKNOWLEDGED', to: 'TRIGGERED', actor: { type: 'system', id: null, via: 'snooze' } }),
    ]);
    expect(inc.stubs.pages[0].step).toBe(0);
  });

  it('when the incident is resolved during its snooze, then the snooze ends without a move and nothing pages', async () => {
    const inc = await incidents.start(
      { plan: policyPlan([600]), recipients: () => [job('ann')] },
      { status: 'ACKNOWLEDGED', seq: 5, snoozedUntilMs: Date.now() + 1500 },
    );
    await inc.update('resolve');
    await sleep(2500); // past the snooze's end

    expect(inc.stubs.of<RecordTransitionInput>('recordTransition').map((m) => m.input.operation)).toEqual(['resolve']);
    expect(inc.stubs.pages).toHaveLength(0);
  });

  it('when the acknowledge timeout runs out during a snooze, then the snooze holds the incident ACKNOWLEDGED', async () => {
    const inc = await incidents.start({ plan: policyPlan([600], 0, 2), recipients: () => [job('ann')] });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    await inc.update('acknowledge');
    await inc.handle.executeUpdate(snoozeIncidentUpdate, { args: [{ actor, minutes: 30 }] });
    await sleep(3000); // past the 2 s acknowledge timeout

    expect((await inc.handle.query(incidentStateQuery)).status).toBe('ACKNOWLEDGED');
    expect(inc.stubs.pages).toHaveLength(1);
  });
});
