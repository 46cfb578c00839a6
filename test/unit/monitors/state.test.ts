import { applyCheck, type MonitorHealth } from '../../../src/domain/monitors/state';

const fresh: MonitorHealth = { state: 'PENDING', consecutiveFailures: 0, incidentOpen: false };

/** Runs a series of check results (1 ok, 0 failed) through the machine; the actions taken. */
function run(results: string, threshold: number, start = fresh) {
  let health = start;
  const actions: Array<string | null> = [];
  for (const r of results) {
    const change = applyCheck(health, r === '1', threshold);
    actions.push(change.action);
    health = change.next;
  }
  return { health, actions };
}

describe('consecutive failures', () => {
  it('when a monitor fails threshold times in a row, then the last one opens an incident and it is DOWN; later failures open nothing more', () => {
    const { health, actions } = run('00000', 3);
    expect(actions).toEqual([null, null, 'open', null, null]);
    expect(health).toEqual({ state: 'DOWN', consecutiveFailures: 5, incidentOpen: true });
  });

  it('when a success comes between failures, then the count starts over and nothing opens', () => {
    const { health, actions } = run('1001001', 3);
    expect(actions.every((a) => a === null)).toBe(true);
    expect(health).toEqual({ state: 'UP', consecutiveFailures: 0, incidentOpen: false });
  });

  it('when a DOWN monitor succeeds, then its incident resolves once and it is UP', () => {
    const { health, actions } = run('00011', 2);
    expect(actions).toEqual([null, 'open', null, 'resolve', null]);
    expect(health.state).toBe('UP');
  });

  it('when the threshold is 1, then the first failure opens; a monitor below the threshold keeps its state (PENDING before any success)', () => {
    expect(run('0', 1).actions).toEqual(['open']);
    expect(run('0', 3).health).toEqual({ state: 'PENDING', consecutiveFailures: 1, incidentOpen: false });
    expect(run('10', 3).health).toEqual({ state: 'UP', consecutiveFailures: 1, incidentOpen: false });
  });
});
