import {
  decideReassign,
  decideSnoozeEnd,
  respondersRefusal,
  snoozeRefusal,
  decideTransition,
  INCIDENT_STATUSES,
  LIFECYCLE_OPERATIONS,
  timestampChanges,
  type IncidentStatus,
  type LifecycleOperation,
} from '../../src/domain/incident-lifecycle';

/** docs/architecture.md, "Incidents", written out independently of the module: [state, op] → expected outcome. */
const EXPECTED: Record<IncidentStatus, Record<LifecycleOperation, IncidentStatus | 'noop' | 'invalid'>> = {
  TRIGGERED: { acknowledge: 'ACKNOWLEDGED', investigate: 'INVESTIGATING', resolve: 'RESOLVED', close: 'invalid', reopen: 'invalid' },
  ACKNOWLEDGED: { acknowledge: 'noop', investigate: 'INVESTIGATING', resolve: 'RESOLVED', close: 'invalid', reopen: 'invalid' },
  INVESTIGATING: { acknowledge: 'invalid', investigate: 'noop', resolve: 'RESOLVED', close: 'invalid', reopen: 'invalid' },
  RESOLVED: { acknowledge: 'invalid', investigate: 'invalid', resolve: 'noop', close: 'CLOSED', reopen: 'TRIGGERED' },
  CLOSED: { acknowledge: 'invalid', investigate: 'invalid', resolve: 'invalid', close: 'noop', reopen: 'TRIGGERED' },
};

describe('incident transition table', () => {
  const cases = INCIDENT_STATUSES.flatMap((s) => LIFECYCLE_OPERATIONS.map((op) => [s, op, EXPECTED[s][op]] as const));

  it.each(cases)('when %s receives %s, then the outcome is %s', (status, op, expected) => {
    const outcome = decideTransition(status, op);
    if (expected === 'noop') expect(outcome).toEqual({ kind: 'noop', status });
    else if (expected === 'invalid') {
      expect(outcome.kind).toBe('invalid');
      // The message names the current state, so a 409 tells the caller where the incident is.
      expect(outcome.kind === 'invalid' && outcome.message).toContain(status);
    } else expect(outcome).toEqual({ kind: 'move', from: status, to: expected });
  });

  it('when every pair is checked, then all 25 combinations are covered', () => {
    expect(cases).toHaveLength(25);
  });
});

describe('timestamp changes', () => {
  it('when acknowledging, resolving or closing, then the matching timestamp is set', () => {
    const at = '2026-01-01T00:00:00.000Z';
    expect(timestampChanges('acknowledge', at)).toEqual({ acknowledged_at: at });
    expect(timestampChanges('resolve', at)).toEqual({ resolved_at: at });
    expect(timestampChanges('close', at)).toEqual({ closed_at: at });
    expect(timestampChanges('investigate', at)).toEqual({});
  });

  it('when reopening, then the previous cycle timestamps are cleared', () => {
    expect(timestampChanges('reopen', 'x')).toEqual({ acknowledged_at: null, resolved_at: null, closed_at: null });
  });
});

describe('a responder’s actions (docs/responding.md)', () => {
  it('when asked per state, then only ACKNOWLEDGED snoozes, open incidents take responders, TRIGGERED and ACKNOWLEDGED reassign to TRIGGERED', () => {
    const table = INCIDENT_STATUSES.map((s) => [s, snoozeRefusal(s) === null, respondersRefusal(s) === null, decideReassign(s).kind]);
    expect(table).toEqual([
      ['TRIGGERED', false, true, 'move'],
      ['ACKNOWLEDGED', true, true, 'move'],
      ['INVESTIGATING', false, true, 'invalid'],
      ['RESOLVED', false, false, 'invalid'],
      ['CLOSED', false, false, 'invalid'],
    ]);
    expect(snoozeRefusal('RESOLVED')).toMatch(/cannot snooze an incident that is RESOLVED/);
    expect(decideReassign('ACKNOWLEDGED')).toEqual({ kind: 'move', from: 'ACKNOWLEDGED', to: 'TRIGGERED' });
  });

  it('when a snooze ends, then only a still-ACKNOWLEDGED incident returns to TRIGGERED, its acknowledgement cleared', () => {
    expect(decideSnoozeEnd('ACKNOWLEDGED')).toEqual({ kind: 'move', from: 'ACKNOWLEDGED', to: 'TRIGGERED' });
    expect(decideSnoozeEnd('RESOLVED')).toEqual({ kind: 'noop' });
    expect(timestampChanges('snooze_end', 'x')).toEqual({ acknowledged_at: null });
    expect(timestampChanges('reassign', 'x')).toEqual({ acknowledged_at: null });
    expect(timestampChanges('merge', 'x')).toEqual({ resolved_at: 'x' });
  });
});
