import type { RecordTransitionInput } from '../../activities/projections';
import { alertsReceivedSignal, type IncidentWorkflowInput } from '../../src/contracts/workflows';
import { AUTO_CLOSE_PATCH } from '../../workflows/incident/auto-close';
import { sleep, waitFor } from '../support/wait';
import { useStubbedIncidents } from './incident-harness';
import { policyPlan, type PagingStubs } from './paging-stubs';

// A RESOLVED incident closes by itself after AUTO_CLOSE_HOURS (docs/architecture.md, "Incidents"). Real timers of a
// second or two (docs/architecture.md, "Testing"): the input carries the wait in seconds.
const incidents = useStubbedIncidents();
/** A policy whose one step resolves to nobody: paging stays out of the way. */
const noPaging = { plan: policyPlan([60]) };
const moves = (stubs: PagingStubs) => stubs.of<RecordTransitionInput>('recordTransition').map((m) => m.input);
const summary = (stubs: PagingStubs) => moves(stubs).map((m) => [m.operation, m.from, m.to, m.actor.type, m.actor.via]);

describe('auto-close of RESOLVED incidents (stub activities)', () => {
  it('when an incident stays RESOLVED for autoCloseSeconds, then it closes by itself as the system, saying after how long, and the run completes', async () => {
    const inc = await incidents.start(noPaging, { autoCloseSeconds: 1 });
    await inc.update('resolve');
    await inc.handle.result();

    expect(summary(inc.stubs)).toEqual([
      ['resolve', 'TRIGGERED', 'RESOLVED', 'user', 'test'],
      ['auto_close', 'RESOLVED', 'CLOSED', 'system', 'auto_close'],
    ]);
    const [resolved, closed] = moves(inc.stubs);
    expect(closed.detail).toBe('after 1 s');
    expect(closed.seq).toBe(resolved.seq + 1);
    expect(Date.parse(closed.at) - Date.parse(resolved.at)).toBeGreaterThanOrEqual(1000);
    const history = await inc.handle.fetchHistory();
    const patches = (history.events ?? []).map((e) => e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data).filter(Boolean);
    expect(patches.map((d) => JSON.parse(Buffer.from(d!).toString('utf8')).id)).toContain(AUTO_CLOSE_PATCH);
  });

  it('when a RESOLVED incident is reopened before the timer, then it stays open; resolved again, it waits the whole time afresh', async () => {
    const inc = await incidents.start(noPaging, { autoCloseSeconds: 2 });
    await inc.update('resolve');
    await sleep(1000);
    expect((await inc.update('reopen')).status).toBe('TRIGGERED');
    await sleep(2000); // past the first resolve's deadline

    expect(summary(inc.stubs).map(([op]) => op)).toEqual(['resolve', 'reopen']);
    await inc.update('resolve');
    await inc.handle.result();
    const [, , again, closed] = moves(inc.stubs);
    expect(closed.operation).toBe('auto_close');
    expect(Date.parse(closed.at) - Date.parse(again.at)).toBeGreaterThanOrEqual(2000);
  });

  it('when a person closes it before the timer, then the run completes with one close and the timer never closes it again', async () => {
    const inc = await incidents.start(noPaging, { autoCloseSeconds: 2 });
    await inc.update('resolve');
    expect((await inc.update('close')).status).toBe('CLOSED');
    await inc.handle.result();
    await sleep(2500); // past the deadline: nothing may be left to fire

    expect(summary(inc.stubs).map(([op, , , , via]) => [op, via])).toEqual([
      ['resolve', 'test'],
      ['close', 'test'],
    ]);
  });

  it('when a RESOLVED run continues as new, then the next run keeps the first deadline (not a fresh wait) and closes in it', async () => {
    const inc = await incidents.start(noPaging, { status: 'RESOLVED', seq: 3, autoCloseSeconds: 4, historyLimit: 12 });
    const { runId: firstRunId } = await inc.handle.describe();
    // Attached alerts grow the history past its limit while the incident waits, RESOLVED.
    for (let i = 0; i < 4; i++) await inc.handle.signal(alertsReceivedSignal, { events: [{ eventId: `late-${i}`, kind: 'attached', title: `late ${i}` }] });
    const continued = await waitFor(async () => startedInput(inc.handle).then((s) => (s.runId !== firstRunId ? s : undefined)), 15_000, 'the continued run');
    await inc.handle.result();

    expect(continued.input.autoCloseSeconds).toBe(4);
    expect(continued.input.status).toBe('RESOLVED');
    // The carried deadline was set when the first run began waiting, before the second run started.
    expect(continued.input.autoCloseAtMs).toBeLessThan(continued.startedAtMs + 4000);
    const [closed] = moves(inc.stubs);
    expect([closed.operation, closed.from, closed.to]).toEqual(['auto_close', 'RESOLVED', 'CLOSED']);
    expect(inc.stubs.of('recordTransition')[0].runId).toBe(continued.runId);
  });

  it('when a run starts RESOLVED with a deadline already past, then it closes at once', async () => {
    const inc = await incidents.start(noPaging, { status: 'RESOLVED', seq: 3, autoCloseSeconds: 3600, autoCloseAtMs: Date.now() - 1000 });
    await inc.handle.result();
    expect(summary(inc.stubs)).toEqual([['auto_close', 'RESOLVED', 'CLOSED', 'system', 'auto_close']]);
  });
});

/** The latest run of a workflow: its run id, start time and input. */
async function startedInput(handle: { describe(): Promise<{ runId: string }>; fetchHistory(): Promise<{ events?: Array<Record<string, any>> | null }> }) {
  const { runId } = await handle.describe();
  const [first] = (await handle.fetchHistory()).events ?? [];
  const attrs = first.workflowExecutionStartedEventAttributes;
  const input = JSON.parse(Buffer.from(attrs.input.payloads[0].data).toString('utf8')) as IncidentWorkflowInput;
  const { seconds, nanos } = first.eventTime as { seconds: number | { toNumber(): number }; nanos?: number };
  const startedAtMs = (typeof seconds === 'number' ? seconds : seconds.toNumber()) * 1000 + Math.floor((nanos ?? 0) / 1e6);
  return { runId, startedAtMs, input };
}
