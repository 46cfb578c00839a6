import { ApplicationFailure } from '@temporalio/common';
import type { IncidentWorkflowInput } from '../../src/contracts/workflows';
import { IncidentEntity } from '../../workflows/incident/entity';

// Only the decisions that write nothing run here: anything that calls an activity needs a
// workflow context (test/workflows/escalation*.test.ts and the replay test cover those).
const input = (over: Partial<IncidentWorkflowInput> = {}): IncidentWorkflowInput => ({
  incidentId: 'inc-1',
  organizationId: 'org-1',
  serviceId: null,
  severity: 'HIGH',
  status: 'TRIGGERED',
  seq: 4,
  ...over,
});

describe('IncidentEntity', () => {
  it('when an operation is invalid for the status, then validate throws InvalidTransition naming the status and nothing changes', () => {
    const incident = new IncidentEntity(input({ status: 'TRIGGERED' }));
    let thrown: unknown;
    try {
      incident.validate('close');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ApplicationFailure);
    expect(thrown).toMatchObject({ type: 'InvalidTransition', nonRetryable: true, details: ['TRIGGERED'] });
    expect(incident.state()).toEqual({ status: 'TRIGGERED', seq: 4 });
    expect(incident.moves).toBe(0);
  });

  it('when an operation moves or repeats the status, then validate accepts it without changing state', () => {
    const incident = new IncidentEntity(input({ status: 'ACKNOWLEDGED' }));
    expect(() => incident.validate('acknowledge')).not.toThrow();
    expect(() => incident.validate('resolve')).not.toThrow();
    expect(incident.state()).toEqual({ status: 'ACKNOWLEDGED', seq: 4 });
  });

  it('when a page still wants a seq under the lock, then it takes the next one; when it no longer does, then it gets null and seq stays', async () => {
    const incident = new IncidentEntity(input());
    await expect(incident.reservePageSeq(() => true)).resolves.toBe(5);
    await expect(incident.reservePageSeq(() => false)).resolves.toBeNull();
    await expect(incident.reservePageSeq(() => true)).resolves.toBe(6);
    expect(incident.seq).toBe(6);
    expect(incident.idle).toBe(true);
  });

  it('when an alert event was applied in an earlier run, or opened the incident, then it writes nothing and seq stays', async () => {
    const incident = new IncidentEntity(input({ appliedEventIds: ['seen'] }));
    await incident.alertReceived({ eventId: 'seen', kind: 'attached', title: 'again' });
    await incident.alertReceived({ eventId: 'first', kind: 'opened', title: 'opened' });
    await incident.alertsReceived({ events: [{ eventId: 'seen', kind: 'resolved', title: 'again' }] });
    expect(incident.state()).toEqual({ status: 'TRIGGERED', seq: 4 });
    expect(incident.resumeFrom()).toEqual({ status: 'TRIGGERED', seq: 4, appliedEventIds: ['seen', 'first'] });
  });

  it('when the incident is CLOSED, then it is terminal; otherwise it is not', () => {
    expect(new IncidentEntity(input({ status: 'CLOSED' })).terminal).toBe(true);
    expect(new IncidentEntity(input({ status: 'RESOLVED' })).terminal).toBe(false);
  });
});
