/**
 * The paging scenarios of `npm run record-histories`: real activities, the dev inbox as every
 * channel's provider (the recorder configures none), policies with delays of a few seconds.
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { addContactMethod } from '../../src/services/paging/contacts';
import { knexOf } from '../../src/db/knex';
import { addNotificationRule } from '../../src/services/paging/notification-rules';
import { SYSTEM_CLI } from '../../src/services/audit';
import { createWindow, endWindow, nudgeHeldIncidents } from '../../src/services/maintenance';
import { addIncidentNote, addIncidentResponders, mergeIncidents, reassignIncident, snoozeIncident } from '../../src/services/incident';
import { putGroupingRules } from '../../src/services/grouping/rules';
import { alertsReceivedSignal, escalateNowSignal, incidentWorkflowId, type IncidentWorkflowInput } from '../../src/contracts/workflows';
import { request } from '../support/http';
import { notificationsOf, pagingService, responder, trigger } from '../support/paging';
import type { TestStack } from '../support/stack';
import { waitFor } from '../support/wait';
import { seedWorkspace } from '../support/workspace';

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;
type Save = (scenario: string, history: History) => void;
type Step = { delay_seconds: number; targets: Array<{ type: 'user'; id: string }> };

/** Records the paging scenarios (docs/architecture.md, "Incidents" and "Paging"), one history file per run. */
export async function recordPagingHistories(stack: TestStack, save: Save): Promise<void> {
  /** A fresh workspace whose service pages ann (SMS now, email after 1 s), then bob (voice). */
  const pager = async (steps: (ann: string, bob: string) => Step[], opts: { repeat?: number; ackTimeoutSeconds?: number } = {}) => {
    const ws = await seedWorkspace(stack.orm);
    const ann = await responder(stack.orm, ws.organizationId, 'sms');
    const email = await addContactMethod(stack.orm, { email: ann.email, type: 'email', address: `${randomUUID().slice(0, 8)}@pager.test` });
    await addNotificationRule(stack.orm, { email: ann.email, contactMethodId: email.id, delaySeconds: 1 });
    const bob = await responder(stack.orm, ws.organizationId, 'voice');
    const ingestUrl = await pagingService(stack.orm, ws, { steps: steps(ann.id, bob.id), ...opts }, stack.urls.ingest);
    const op = (id: string, name: string) =>
      request('POST', `${stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents/${id}/${name}`, { token: ws.tokens.readWrite });
    /** Pages sent to a person, by channel. */
    const sent = async (id: string, userId: string) => (await notificationsOf(stack.orm, id)).filter((n) => n.user_id === userId && n.status === 'sent');
    const finish = async (id: string) => {
      for (const name of ['resolve', 'close']) await op(id, name);
      await stack.temporal.workflow.getHandle(incidentWorkflowId(id)).result();
    };
    return { ws, ann, bob, ingestUrl, op, sent, finish };
  };
  const user = (id: string, delay: number): Step => ({ delay_seconds: delay, targets: [{ type: 'user', id }] });
  const handleOf = (id: string) => stack.temporal.workflow.getHandle(incidentWorkflowId(id));

  // (a) Step 1 pages ann (SMS, then email after its 1 s rule), nobody answers, step 2 calls bob,
  // the acknowledge stops the repeat that would page ann again.
  const a = await pager((ann, bob) => [user(ann, 2), user(bob, 2)], { repeat: 1 });
  const twoSteps = await trigger(a.ingestUrl, 'recorded two steps');
  await waitFor(async () => (await a.sent(twoSteps, a.bob.id)).length === 1, 20_000, 'step 2');
  await a.op(twoSteps, 'acknowledge');
  await a.finish(twoSteps);
  save('paging-two-steps-acknowledged', await handleOf(twoSteps).fetchHistory());

  // (b) The acknowledge times out after 2 s: the system re-triggers and step 1 pages again.
  const b = await pager((ann, bob) => [user(ann, 3), user(bob, 3)], { ackTimeoutSeconds: 2 });
  const timedOut = await trigger(b.ingestUrl, 'recorded ack timeout');
  await waitFor(async () => (await b.sent(timedOut, b.ann.id)).length === 1, 20_000, 'step 1');
  await b.op(timedOut, 'acknowledge');
  await waitFor(async () => (await b.sent(timedOut, b.ann.id)).length >= 3, 20_000, 'step 1 after the timeout');
  await b.finish(timedOut);
  save('paging-ack-timeout-retriggered', await handleOf(timedOut).fetchHistory());

  // (c) A responder presses 2: step 2 pages at once instead of a minute later.
  const c = await pager((ann, bob) => [user(ann, 60), user(bob, 60)]);
  const escalated = await trigger(c.ingestUrl, 'recorded escalate now');
  await waitFor(async () => (await c.sent(escalated, c.ann.id)).length === 1, 20_000, 'step 1');
  await handleOf(escalated).signal(escalateNowSignal, { actor: { type: 'user', id: c.ann.id, via: 'voice' } });
  await waitFor(async () => (await c.sent(escalated, c.bob.id)).length === 1, 20_000, 'step 2');
  await c.finish(escalated);
  save('paging-escalate-now', await handleOf(escalated).fetchHistory());

  // (d) The run continues as new while step 2 waits; the next run sends it.
  const d = await pager((ann, bob) => [user(ann, 5), user(bob, 5)]);
  const { firstRunId, handle } = await withLowHistoryLimit(stack, () => trigger(d.ingestUrl, 'recorded continued'), 60);
  const continued = handle.workflowId.replace('incident-', '');
  await waitFor(async () => (await d.sent(continued, d.ann.id)).length === 1, 20_000, 'step 1');
  for (let i = 0; i < 30 && (await handle.describe()).runId === firstRunId; i++) {
    await handle.signal(alertsReceivedSignal, { events: [{ eventId: randomUUID(), kind: 'attached', title: `flap ${i}` }] });
    await new Promise((r) => setTimeout(r, 100)); // one signal per workflow task, so none spills into the next run
  }
  const secondRunId = (await handle.describe()).runId;
  if (secondRunId === firstRunId) throw new Error('the run did not continue as new before step 2');
  await waitFor(async () => (await d.sent(continued, d.bob.id)).length === 1, 20_000, 'step 2');
  await d.finish(continued);
  const secondRun = stack.temporal.workflow.getHandle(handle.workflowId, secondRunId);
  // Had the second run crossed the limit too, the scenario would have a third run.
  if ((await secondRun.describe()).status.name !== 'COMPLETED') throw new Error('the second run did not complete the incident');
  save('paging-continued-first-run', await stack.temporal.workflow.getHandle(handle.workflowId, firstRunId).fetchHistory());
  save('paging-continued-second-run', await secondRun.fetchHistory());

  // (e) A maintenance window of 3 s holds the incident (patched('maintenance-hold')); at its end
  // the spell plans again and step 1 pages.
  const e = await pager((ann, bob) => [user(ann, 60), user(bob, 60)]);
  const window = (minutes: number) =>
    createWindow(
      stack.orm,
      {
        organizationId: e.ws.organizationId,
        serviceIds: [e.ws.serviceId],
        startsAt: new Date(),
        endsAt: new Date(Date.now() + minutes * 60_000),
        reason: 'recorded',
      },
      SYSTEM_CLI,
    );
  const held = async (id: string) =>
    waitFor(async () => (await knexOf(stack.orm)('timeline_entries').where({ incident_id: id, type: 'paging_decision' })).length === 1, 20_000, 'the hold');
  await window(0.05);
  const heldUntilEnd = await trigger(e.ingestUrl, 'recorded maintenance held');
  await held(heldUntilEnd);
  await waitFor(async () => (await e.sent(heldUntilEnd, e.ann.id)).length === 2, 20_000, 'step 1 after the window');
  await e.finish(heldUntilEnd);
  save('paging-maintenance-held', await handleOf(heldUntilEnd).fetchHistory());

  // (f) A 30-minute window is ended early: the maintenanceChanged signal makes the spell plan again at once.
  const early = await window(30);
  const endedEarly = await trigger(e.ingestUrl, 'recorded maintenance ended early');
  await held(endedEarly);
  await endWindow(stack.orm, { organizationId: e.ws.organizationId, id: early.id }, SYSTEM_CLI);
  await nudgeHeldIncidents({ orm: stack.orm, temporal: stack.temporal }, { organizationId: e.ws.organizationId, serviceIds: [e.ws.serviceId] });
  await waitFor(async () => (await e.sent(endedEarly, e.ann.id)).length === 2, 20_000, 'step 1 after the window ended');
  await e.finish(endedEarly);
  save('paging-maintenance-ended-early', await handleOf(endedEarly).fetchHistory());

  // (g) A responder's actions (docs/responding.md), each an Update of the workflow: a note, bob
  // added (paged by his rules), an acknowledge, a one-minute snooze that ends on its timer (step 1
  // pages ann again), a reassign to bob (a new spell paging him first), another incident merged
  // in (its alerts move; it resolves "merged into #N" and is closed), then resolve and close.
  const g = await pager((ann, bob) => [user(ann, 600), user(bob, 600)]);
  const deps = { orm: stack.orm, temporal: stack.temporal, taskQueue: stack.taskQueue };
  const on = (incidentId: string) => ({
    organizationId: g.ws.organizationId,
    incidentId,
    actor: { type: 'user' as const, id: g.ws.admin.id, via: 'recorder' },
  });
  const responding = await trigger(g.ingestUrl, 'recorded responder actions');
  const mergedAway = await trigger(g.ingestUrl, 'recorded merged away');
  await waitFor(async () => (await g.sent(responding, g.ann.id)).length === 2, 20_000, 'step 1 on both rules');
  await addIncidentNote(deps, { ...on(responding), text: 'Recorded note' });
  await addIncidentResponders(deps, { ...on(responding), targets: [{ type: 'user', id: g.bob.id }], message: 'recorded' });
  await waitFor(async () => (await g.sent(responding, g.bob.id)).length === 1, 20_000, 'bob, added');
  await g.op(responding, 'acknowledge');
  await snoozeIncident(deps, { ...on(responding), minutes: 1 });
  await waitFor(async () => (await g.sent(responding, g.ann.id)).length === 4, 90_000, 'step 1 again after the snooze');
  await reassignIncident(deps, { ...on(responding), targets: [{ type: 'user', id: g.bob.id }] });
  await waitFor(async () => (await g.sent(responding, g.bob.id)).length === 2, 20_000, 'bob, reassigned');
  await mergeIncidents(deps, { ...on(responding), incidentIds: [mergedAway] });
  await g.op(mergedAway, 'close');
  await handleOf(mergedAway).result();
  await g.finish(responding);
  save('responder-actions', await handleOf(responding).fetchHistory());
  save('merged-away', await handleOf(mergedAway).fetchHistory());

  // (h) A grouping rule pages only once 2 alerts arrived within 300 s: the first is held, the
  // second attaches and makes the spell plan again (patched('grouping-page-after')), and it pages.
  const h = await pager((ann, bob) => [user(ann, 60), user(bob, 60)]);
  await putGroupingRules(stack.orm, {
    organizationId: h.ws.organizationId,
    serviceId: h.ws.serviceId,
    rules: [{ name: 'pairs', match: [], group_by: [], window_seconds: 600, page_after: { count: 2, within_seconds: 300 } }],
  });
  const gathered = await trigger(h.ingestUrl, 'recorded page after');
  await held(gathered);
  if ((await trigger(h.ingestUrl, 'recorded page after, second')) !== gathered) throw new Error('the second alert did not join the group');
  await waitFor(async () => (await h.sent(gathered, h.ann.id)).length === 2, 20_000, 'step 1 once two alerts arrived');
  await h.finish(gathered);
  save('paging-grouping-page-after', await handleOf(gathered).fetchHistory());
}

/**
 * Opens an incident whose workflow runs with a low history limit: with the worker stopped, the
 * run ingestion started is replaced (it never ran) by one seeded from the projection.
 */
async function withLowHistoryLimit(stack: TestStack, open: () => Promise<string>, historyLimit: number) {
  await stack.worker.stop();
  const incidentId = await open();
  const workflowId = incidentWorkflowId(incidentId);
  const started = stack.temporal.workflow.getHandle(workflowId);
  await waitFor(async () => (await started.describe()).status.name === 'RUNNING', 15_000, 'the ingestion run');
  await started.terminate('recorder: restart with a low history limit');
  const row = await knexOf(stack.orm)('incidents').where({ id: incidentId }).first();
  const input: IncidentWorkflowInput = {
    incidentId,
    organizationId: row.organization_id,
    serviceId: row.service_id,
    severity: row.severity,
    status: row.status,
    seq: row.last_seq,
    historyLimit,
  };
  const handle = await stack.temporal.workflow.start('incidentWorkflow', { taskQueue: stack.taskQueue, workflowId, args: [input] });
  await stack.worker.start();
  return { firstRunId: handle.firstExecutionRunId, handle: stack.temporal.workflow.getHandle(workflowId) };
}
