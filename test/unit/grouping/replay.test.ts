import { replayGrouping, type ReplayAlert, type ReplayIncident } from '../../../src/domain/grouping/replay';
import type { GroupingRule } from '../../../src/domain/grouping/rules';

const run = <T>(gen: Generator<void, T, void>): T => {
  for (;;) {
    const step = gen.next();
    if (step.done) return step.value;
  }
};
const T0 = Date.parse('2026-11-01T00:00:00Z');
const alert = (i: number, host: string, over: Partial<ReplayAlert> = {}): ReplayAlert => ({
  id: `a${i}`,
  title: `Disk full on ${host}`,
  severity: 'HIGH',
  sender: 'form-a',
  metadata: { host },
  tags: null,
  dedup_key: null,
  created_at: T0 + i * 1000,
  resolved_at: null,
  incident_id: `i${i}`,
  ...over,
});
const byHost: GroupingRule = {
  name: 'by host',
  match: [{ field: 'title', op: 'contains', value: 'Disk' }],
  group_by: ['details.host'],
  window_seconds: 600,
  page_after: null,
};
const limits = { groups: 100, splitLost: 100 };

describe('grouping replay', () => {
  it('when no rule applies, then the replay opens and pages exactly the real incidents', () => {
    const alerts = [alert(0, 'a'), alert(1, 'a', { dedup_key: 'k', incident_id: 'i1' }), alert(2, 'b', { dedup_key: 'k', incident_id: 'i1' })];
    const incidents = new Map<string, ReplayIncident>([
      ['i0', { id: 'i0', number: 1, title: 't', paged: true }],
      ['i1', { id: 'i1', number: 2, title: 't', paged: true }],
    ]);
    expect(run(replayGrouping(alerts, incidents, [], limits))).toMatchObject({
      pages_before: 2,
      pages_after: 2,
      incidents_before: 2,
      incidents_after: 2,
      groups: [],
      split_lost: [],
    });
  });

  it('when a rule groups by host within its window, then each host is one incident and folded pages are listed as lost', () => {
    const alerts = [alert(0, 'a'), alert(1, 'b'), alert(2, 'a'), alert(700, 'a')];
    const incidents = new Map(
      alerts.map((a, n): [string, ReplayIncident] => [a.incident_id, { id: a.incident_id, number: n + 1, title: a.title, paged: true }]),
    );
    const result = run(replayGrouping(alerts, incidents, [byHost], limits));
    expect(result).toMatchObject({ pages_before: 4, pages_after: 3, incidents_before: 4, incidents_after: 3 });
    expect(result.groups.map((g) => [g.key, g.alerts])).toEqual([
      ['details.host=a', 2],
      ['details.host=b', 1],
      ['details.host=a', 1],
    ]);
    expect(result.split_lost).toEqual([{ incident_id: 'i2', number: 3, title: 'Disk full on a', folded_into: 'details.host=a' }]);
  });

  it('when page_after is not reached, or every alert resolved first, then the group does not page', () => {
    const held: GroupingRule = { ...byHost, page_after: { count: 3, within_seconds: 60 } };
    const alerts = [alert(0, 'a'), alert(1, 'a'), alert(2, 'b'), alert(3, 'b'), alert(4, 'b')];
    const incidents = new Map(
      alerts.map((a, n): [string, ReplayIncident] => [a.incident_id, { id: a.incident_id, number: n + 1, title: a.title, paged: true }]),
    );
    expect(run(replayGrouping(alerts, incidents, [held], limits))).toMatchObject({ pages_after: 1, incidents_after: 2 });
    // Host a's alert resolved before the next: the next opens a new incident.
    const resolved = [alert(0, 'a', { resolved_at: T0 + 500 }), alert(1, 'a')];
    expect(run(replayGrouping(resolved, incidents, [byHost], limits))).toMatchObject({ incidents_after: 2 });
  });
});
