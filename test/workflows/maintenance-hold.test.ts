import { randomUUID } from 'node:crypto';
import { alertsReceivedSignal, maintenanceChangedSignal } from '../../src/contracts/workflows';
import { sleep, waitFor } from '../support/wait';
import { useStubbedIncidents } from './incident-harness';
import { job, policyPlan } from './paging-stubs';

// docs/maintenance-windows.md: a held spell waits on a workflow timer, survives continueAsNew,
// never pages once it ends, and plans again at once when a window changes. Stub activities.
const incidents = useStubbedIncidents();
const annThenBob = (step: number) => [job(step === 0 ? 'ann' : 'bob')];

describe('a spell held by a maintenance window (stub activities)', () => {
  it('when the run continues as new during a hold, then the new run waits out the same hold without planning again, then pages step 1', async () => {
    const holdEnd = Date.now() + 6000;
    const inc = await incidents.start(
      { plan: policyPlan([60, 60]), recipients: annThenBob, heldUntil: () => (Date.now() < holdEnd ? new Date(holdEnd).toISOString() : undefined) },
      { historyLimit: 40 },
    );
    await waitFor(async () => inc.stubs.of('planEscalation').length === 1, 15_000, 'the held plan');
    const firstRun = inc.stubs.of('planEscalation')[0].runId;
    for (let i = 0; i < 20 && (await inc.handle.describe()).runId === firstRun; i++) {
      await inc.handle.signal(alertsReceivedSignal, { events: [{ eventId: randomUUID(), kind: 'attached', title: `flap ${i}` }] });
      await sleep(50);
    }
    expect((await inc.handle.describe()).runId).not.toBe(firstRun);
    expect(Date.now()).toBeLessThan(holdEnd);

    await waitFor(async () => inc.stubs.pages.length === 1, 20_000, 'step 1 after the hold');
    const [page] = inc.stubs.pages;
    expect([page.step, page.job.userId]).toEqual([0, 'ann']);
    expect(page.at).toBeGreaterThanOrEqual(holdEnd);
    expect(page.runId).not.toBe(firstRun);
    // The new run planned only once the hold had run out: no second "Not paged" entry at its start.
    const plans = inc.stubs.of('planEscalation');
    expect(plans.filter((p) => p.runId !== firstRun).every((p) => p.at >= holdEnd)).toBe(true);
  });

  it('when the incident is acknowledged during a hold, then nothing pages after the hold ends', async () => {
    const holdEnd = Date.now() + 2500;
    const inc = await incidents.start({
      plan: policyPlan([60]),
      recipients: annThenBob,
      heldUntil: () => (Date.now() < holdEnd ? new Date(holdEnd).toISOString() : undefined),
    });
    await waitFor(async () => inc.stubs.of('planEscalation').length === 1, 15_000, 'the held plan');
    expect((await inc.update('acknowledge')).status).toBe('ACKNOWLEDGED');
    await sleep(holdEnd - Date.now() + 1500);
    expect(inc.stubs.pages).toEqual([]);
    expect(inc.stubs.of('planEscalation')).toHaveLength(1);
  });

  it('when a window is ended early (maintenanceChanged), then the held spell plans again at once and pages', async () => {
    let windowOn = true;
    const inc = await incidents.start({
      plan: policyPlan([60]),
      recipients: annThenBob,
      heldUntil: () => (windowOn ? new Date(Date.now() + 600_000).toISOString() : undefined),
    });
    await waitFor(async () => inc.stubs.of('planEscalation').length === 1, 15_000, 'the held plan');
    await sleep(500);
    expect(inc.stubs.pages).toEqual([]);
    windowOn = false;
    const signalledAt = Date.now();
    await inc.handle.signal(maintenanceChangedSignal);
    await waitFor(async () => inc.stubs.pages.length === 1, 10_000, 'step 1 after the window ended');
    expect(inc.stubs.pages[0].at - signalledAt).toBeLessThan(3000);
  });
});
