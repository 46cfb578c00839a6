import type { SendPageInput } from '../../activities/paging/send';
import { addRespondersUpdate, incidentStateQuery, reassignIncidentUpdate } from '../../src/contracts/workflows';
import { sleep, waitFor } from '../support/wait';
import { useStubbedIncidents } from './incident-harness';
import { job, policyPlan } from './paging-stubs';

// Added responders and reassign (docs/responding.md) on the real incident workflow, stub activities, real timers.
const incidents = useStubbedIncidents();
const actor = { type: 'user' as const, id: '00000000-0000-4000-8000-000000000002', via: 'test' };
const targets = [{ type: 'user' as const, id: '00000000-0000-4000-8000-000000000003' }];

describe('added responders and reassign (stub activities)', () => {
  it('when responders are added to an ACKNOWLEDGED incident, then their pages go out by their rules’ delays as requested pages, and the escalation stays still', async () => {
    const inc = await incidents.start({
      plan: policyPlan([600]),
      recipients: () => [job('ann')],
      responders: () => [job('dba', 'email'), job('dba', 'sms', 1)],
    });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    await inc.update('acknowledge');
    const added = await inc.handle.executeUpdate(addRespondersUpdate, { args: [{ actor, targets, message: 'need a DBA' }] });
    expect(added.pages).toBe(2);
    await waitFor(async () => inc.stubs.pages.length === 3, 15_000, 'both responder pages');

    const [now, later] = inc.stubs.pages.slice(1) as SendPageInput[];
    expect([now.job.channel, now.requested, later.job.channel, later.requested]).toEqual(['email', true, 'sms', true]);
    expect(later.job.delaySeconds).toBe(1);
    expect(inc.stubs.of('responderRecipients')[0].input).toMatchObject({ targets, actor, message: 'need a DBA' });
    expect((await inc.handle.query(incidentStateQuery)).status).toBe('ACKNOWLEDGED');
  });

  it('when the incident is resolved before a responder’s delayed page is due, then that page never goes out, and a resolved incident takes no responders', async () => {
    const inc = await incidents.start({ plan: policyPlan([600]), recipients: () => [job('ann')], responders: () => [job('dba', 'sms', 2)] });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    await inc.handle.executeUpdate(addRespondersUpdate, { args: [{ actor, targets }] });
    await inc.update('resolve');
    await sleep(3000); // past the page's 2 s delay

    expect(inc.stubs.pages.map((p) => p.job.userId)).toEqual(['ann']);
    const refused = await inc.handle.executeUpdate(addRespondersUpdate, { args: [{ actor, targets }] }).then(
      () => 'accepted',
      (e: { cause?: { message?: string } }) => e.cause?.message,
    );
    expect(refused).toMatch(/cannot add responders to an incident that is RESOLVED/);
  });

  it('when an ACKNOWLEDGED incident is reassigned, then it moves to TRIGGERED and the new spell plans with the chosen targets as its first step', async () => {
    const inc = await incidents.start({ plan: policyPlan([600]), recipients: () => [job('ann')] });
    await waitFor(async () => inc.stubs.pages.length === 1, 15_000, 'the first page');
    await inc.update('acknowledge');
    const snapshot = await inc.handle.executeUpdate(reassignIncidentUpdate, { args: [{ actor, targets }] });
    expect(snapshot.status).toBe('TRIGGERED');
    await waitFor(async () => inc.stubs.pages.length === 2, 15_000, 'the reassigned spell’s page');

    const plans = inc.stubs.of<{ targets?: unknown }>('planEscalation').map((c) => c.input.targets);
    expect(plans).toEqual([undefined, targets]);
  });
});
