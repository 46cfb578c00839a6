import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';

const HISTORIES = path.join(__dirname, '..', 'histories');
const files = readdirSync(HISTORIES).filter((f) => f.endsWith('.json'));
const LIFECYCLE_VERSIONS = ['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', 'v10', 'v11', 'v12', 'v13', 'v14'];
/** From v12: a grouping rule's page_after holds the spell until a second alert joins (docs/grouping.md). */
const PAGE_AFTER_VERSIONS = ['v12', 'v13', 'v14'];
/** From v11 (v12 was recorded on a branch without them; v13 holds both). */
const RESPONDER_VERSIONS = ['v11', 'v13', 'v14'];
/** From v14: a phone page fails over from Twilio to Vonage (docs/reliability.md, "Carriers"). */
const FAILOVER_VERSIONS = ['v14'];
const PAGING_SCENARIOS = ['two-steps-acknowledged', 'ack-timeout-retriggered', 'escalate-now', 'continued-first-run', 'continued-second-run'];
/** From v10: a maintenance window holds the spell until it ends, or until it is ended early. */
const MAINTENANCE_SCENARIOS = ['maintenance-held', 'maintenance-ended-early'];
/** From v11: a responder's actions (docs/responding.md), and the incident merged away meanwhile. */
const RESPONDER_SCENARIOS = RESPONDER_VERSIONS.flatMap((v) => [`${v}-incident-responder-actions.json`, `${v}-incident-merged-away.json`]);
/** v5: every page attempt a remote activity; v6 on: a page's first attempt is a local activity. */
const versionOf = (file: string) => Number(/^v(\d+)-/.exec(file)![1]);
const paging = (scenario: string, version = 'v5') => `${version}-incident-paging-${scenario}.json`;

/** What a recorded history did, read from its JSON: patches, activities (with inputs), messages, end. */
function summary(file: string) {
  const events: Array<Record<string, any>> = JSON.parse(readFileSync(path.join(HISTORIES, file), 'utf8')).events;
  const decode = (p: { data?: string } | undefined) => (p?.data ? JSON.parse(Buffer.from(p.data, 'base64').toString('utf8')) : undefined);
  const attrs = (suffix: string) => events.map((e) => e[suffix]).filter(Boolean);
  return {
    patches: attrs('markerRecordedEventAttributes')
      .filter((m) => m.markerName === 'core_patch')
      .map((m) => decode(m.details['patch-data'].payloads[0]).id),
    activities: attrs('activityTaskScheduledEventAttributes').map((a) => ({ name: a.activityType.name as string, input: decode(a.input.payloads[0]) })),
    // Local activities leave a marker with their type and result, not their input.
    localActivities: attrs('markerRecordedEventAttributes')
      .filter((m) => m.markerName === 'core_local_activity')
      .map((m) => ({ name: decode(m.details.data.payloads[0]).activity_type as string, result: decode(m.details.result.payloads[0]) })),
    signals: attrs('workflowExecutionSignaledEventAttributes').map((s) => s.signalName as string),
    updates: attrs('workflowExecutionUpdateAcceptedEventAttributes').map((u) => u.acceptedRequest.input.name as string),
    last: String(events[events.length - 1].eventType),
  };
}
const named = (s: ReturnType<typeof summary>, name: string) => s.activities.filter((a) => a.name === name);
const local = (s: ReturnType<typeof summary>, name: string) => s.localActivities.filter((a) => a.name === name);

describe('replay of recorded incident histories', () => {
  it('when histories are committed, then each scenario exists for every recorded workflow version', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        ...LIFECYCLE_VERSIONS.flatMap((v) => [`${v}-incident-lifecycle-closed.json`, `${v}-incident-reopened-run.json`]),
        ...LIFECYCLE_VERSIONS.slice(2).map((v) => `${v}-incident-from-alerts.json`),
        ...LIFECYCLE_VERSIONS.slice(3).map((v) => `${v}-incident-batch-resolved-by-sender.json`),
        ...LIFECYCLE_VERSIONS.slice(4).flatMap((v) => PAGING_SCENARIOS.map((scenario) => paging(scenario, v))),
        ...LIFECYCLE_VERSIONS.slice(9).flatMap((v) => MAINTENANCE_SCENARIOS.map((scenario) => paging(scenario, v))),
        ...PAGE_AFTER_VERSIONS.map((v) => paging('grouping-page-after', v)),
        ...RESPONDER_SCENARIOS,
        'v7-incident-sender-acknowledged-unpatched.json',
        'v8-incident-sender-acknowledged.json',
        'v9-incident-sender-acknowledged.json',
        'v10-incident-sender-acknowledged.json',
        'v11-incident-sender-acknowledged.json',
        'v12-incident-sender-acknowledged.json',
        'v13-incident-sender-acknowledged.json',
        'v14-incident-sender-acknowledged.json',
        ...FAILOVER_VERSIONS.map((v) => paging('carrier-failover', v)),
      ]),
    );
  });

  it.each(files)('when %s is replayed against the current workflow code, then it is deterministic', async (file) => {
    const history = historyFromJSON(JSON.parse(readFileSync(path.join(HISTORIES, file), 'utf8')));
    const code = readFileSync(process.env.KLAXON_TEST_WORKFLOW_BUNDLE!, 'utf8');
    await expect(Worker.runReplayHistory({ workflowBundle: { code } }, history, `replay-${file}`)).resolves.toBeUndefined();
  });
});

// A replay only proves something if the history took the paths it is named after.
describe('what the recorded paging histories exercise', () => {
  it('when a history predates v5, then it holds no paging patch; from v5 on, every one does', () => {
    for (const file of files) expect({ file, paging: summary(file).patches.includes('paging-escalation') }).toEqual({ file, paging: versionOf(file) >= 5 });
  });

  it('when a history pages from v6 on, then it holds the local-first-attempt patch and its pages went out as local activities', () => {
    for (const file of files.filter((f) => f.includes('-paging-'))) {
      const s = summary(file);
      const v6 = versionOf(file) >= 6;
      expect({ file, patched: s.patches.includes('page-local-first-attempt') }).toEqual({ file, patched: v6 });
      // A failover's send to the next carrier (v14) is remote by design (escalation.ts, failoverSteps).
      if (v6) expect({ file, remote: named(s, 'sendPage').filter((a) => !a.input.failover).length }).toEqual({ file, remote: 0 });
    }
    const s = summary(paging('two-steps-acknowledged', 'v6'));
    expect(local(s, 'sendPage').map((a) => [a.result.status, a.result.channel])).toEqual([
      ['sent', 'sms'],
      ['sent', 'email'],
      ['sent', 'voice'],
    ]);
    expect(s.updates).toEqual(['acknowledgeIncident', 'resolveIncident', 'closeIncident']);
  });

  it('when a history is from v7 on, then it holds the paging-decision patch, the auto-close one once resolved, and the Update write budget', () => {
    for (const file of files) {
      const { patches } = summary(file);
      const v7 = versionOf(file) >= 7;
      // A step's decision is written where it looks up whom to page.
      const stepped = local(summary(file), 'stepRecipients').length + named(summary(file), 'stepRecipients').length > 0;
      if (stepped) expect({ file, decisions: patches.includes('paging-decision-entries') }).toEqual({ file, decisions: v7 });
      if (!v7) expect({ file, autoClose: patches.includes('auto-close-resolved') }).toEqual({ file, autoClose: false });
    }
    // The auto-close timer is armed when an incident resolves.
    for (const file of ['v7-incident-lifecycle-closed.json', 'v7-incident-from-alerts.json', 'v7-incident-batch-resolved-by-sender.json']) {
      expect({ file, autoClose: summary(file).patches.includes('auto-close-resolved') }).toEqual({ file, autoClose: true });
    }
    // A new incident's run never seeds from the projection (relay/late-events.test.ts covers the runs that do).
    expect(summary('v7-incident-lifecycle-closed.json').patches).not.toContain('run-seed-from-projection');
    // Its lifecycle Updates wrote under the budget.
    expect(summary('v7-incident-lifecycle-closed.json').patches).toContain('update-write-budget');
  });

  it('when a history is from v9 on, then each spell that plans answers its first step in the same lookup (plan-with-first-step)', () => {
    for (const file of files.filter((f) => f.includes('-paging-'))) {
      const s = summary(file);
      const v9 = versionOf(file) >= 9;
      const plans = local(s, 'planEscalation');
      if (plans.length === 0) continue;
      expect({ file, patched: s.patches.includes('plan-with-first-step') }).toEqual({ file, patched: v9 });
      // A plan a maintenance window held (v10 on) answers when the hold ends instead of step 1.
      expect({ file, firstSteps: plans.map((p) => Array.isArray(p.result.firstStep) || p.result.heldUntil !== undefined) }).toEqual({
        file,
        firstSteps: plans.map(() => v9),
      });
    }
    // Two steps, the first on two rules: the plan's lookup answered step 1, stepRecipients only step 2.
    const s = summary(paging('two-steps-acknowledged', 'v9'));
    expect(local(s, 'planEscalation').map((p) => p.result.firstStep.map((j: { channel: string }) => j.channel))).toEqual([['sms', 'email']]);
    expect(local(s, 'stepRecipients')).toHaveLength(1);
    expect(local(s, 'sendPage').map((a) => [a.result.status, a.result.channel])).toEqual([
      ['sent', 'sms'],
      ['sent', 'email'],
      ['sent', 'voice'],
    ]);
    // The acknowledge timeout's new spell plans again, and its lookup answers step 1 again.
    expect(local(summary(paging('ack-timeout-retriggered', 'v9')), 'planEscalation').map((p) => p.result.firstStep.length)).toEqual([2, 2]);
  });

  it('when a history is from v10 on, then each spell that plans holds the maintenance-hold patch; before, none does', () => {
    for (const file of files.filter((f) => local(summary(f), 'planEscalation').length > 0)) {
      expect({ file, patched: summary(file).patches.includes('maintenance-hold') }).toEqual({ file, patched: versionOf(file) >= 10 });
    }
  });

  it('when a window held the spell, then the plan answered its end, the spell waited on a timer and planned again to page step 1', () => {
    const s = summary(paging('maintenance-held', 'v10'));
    const plans = local(s, 'planEscalation');
    expect(plans.map((p) => [typeof p.result.heldUntil, Array.isArray(p.result.firstStep)])).toEqual([
      ['string', false],
      ['undefined', true],
    ]);
    expect(s.signals).not.toContain('maintenanceChanged');
    expect(local(s, 'sendPage').map((a) => [a.result.status, a.result.channel])).toEqual([
      ['sent', 'sms'],
      ['sent', 'email'],
    ]);
  });

  it('when the window was ended early, then the history holds the maintenanceChanged signal and the spell planned again before the hold ran out', () => {
    const s = summary(paging('maintenance-ended-early', 'v10'));
    expect(s.signals).toContain('maintenanceChanged');
    const plans = local(s, 'planEscalation');
    expect(plans.map((p) => typeof p.result.heldUntil)).toEqual(['string', 'undefined']);
    expect(local(s, 'sendPage').map((a) => a.result.channel)).toEqual(['sms', 'email']);
  });

  it('when a history is from v14 on and a carrier took a page, then only then does it hold the carrier-failover patch', () => {
    for (const file of files.filter((f) => versionOf(f) < 14))
      expect({ file, patched: summary(file).patches.includes('carrier-failover') }).toEqual({ file, patched: false });
    // The dev inbox sends the other scenarios' pages: no carrier took them, so nothing waited.
    for (const file of files.filter((f) => versionOf(f) >= 14 && !f.includes('carrier-failover'))) {
      expect({ file, patched: summary(file).patches.includes('carrier-failover') }).toEqual({ file, patched: false });
    }
  });

  it('when Twilio reported the SMS undelivered, then the history waited on the report (its signal), sent through Vonage, read how Vonage did and wrote the failover line', () => {
    const s = summary(paging('carrier-failover', 'v14'));
    expect(s.patches).toContain('carrier-failover');
    expect(s.signals.filter((name) => name === 'pageDeliveryReport')).toHaveLength(2);
    // The first send is local; the failover's steps are remote activities (their results have their place in the history).
    expect(local(s, 'sendPage').map((a) => [a.result.status, a.result.provider, a.result.carrier?.tried])).toEqual([['sent', 'twilio', ['twilio']]]);
    expect(named(s, 'sendPage').map((a) => a.input.failover)).toEqual([{ tried: ['twilio'] }]);
    expect(named(s, 'carrierReport').map((a) => a.input.carrier)).toEqual(['twilio', 'vonage']);
    expect(named(s, 'recordFailover')).toHaveLength(1);
    expect(local(s, 'carrierReport')).toHaveLength(0);
  });

  it('when nobody answered two steps, then the history pages step 1 on two rules, step 2, and is acknowledged', () => {
    const s = summary(paging('two-steps-acknowledged'));
    expect(local(s, 'stepRecipients')).toHaveLength(2);
    expect(named(s, 'sendPage').map((a) => [a.input.step, a.input.job.channel])).toEqual([
      [0, 'sms'],
      [0, 'email'],
      [1, 'voice'],
    ]);
    expect(s.updates).toEqual(['acknowledgeIncident', 'resolveIncident', 'closeIncident']);
  });

  it('when the acknowledge timed out, then the history plans and pages step 1 again after it', () => {
    const s = summary(paging('ack-timeout-retriggered'));
    expect(local(s, 'planEscalation')).toHaveLength(2);
    expect(local(s, 'stepRecipients')).toHaveLength(2);
    // Step 1 (SMS at once, email after 1 s) is acknowledged before its email; the timeout re-pages both.
    expect(named(s, 'sendPage').map((a) => [a.input.step, a.input.job.channel])).toEqual([
      [0, 'sms'],
      [0, 'sms'],
      [0, 'email'],
    ]);
    expect(s.updates.slice(0, 1)).toEqual(['acknowledgeIncident']);
  });

  it('when a responder escalated now, then the history holds the signal and the step 2 page', () => {
    const s = summary(paging('escalate-now'));
    expect(s.signals).toContain('escalateNow');
    expect(named(s, 'sendPage').map((a) => a.input.step)).toEqual([0, 1]);
  });

  it('when the run continued as new mid-escalation, then the first run paged step 1 and the second resumed to page step 2 without planning', () => {
    const first = summary(paging('continued-first-run'));
    const second = summary(paging('continued-second-run'));
    expect(first.last).toMatch(/CONTINUED_AS_NEW/);
    expect(named(first, 'sendPage').map((a) => a.input.step)).toContain(0);
    expect(local(second, 'planEscalation')).toEqual([]);
    expect(local(second, 'stepRecipients')).toHaveLength(1);
    expect(named(second, 'sendPage').map((a) => a.input.step)).toContain(1);
    expect(second.last).toMatch(/WORKFLOW_EXECUTION_COMPLETED/);
  });
});

// A sender's acknowledge (docs/compat-intake.md): v8 applies it under its patch; a v7 run that heard
// one (an API process already sending them, its worker not yet upgraded) attached it as an alert,
// and must replay that way. That history was recorded once by the v7 code (commit aeb451e) with
// stub activities: an acknowledged event, then a person's resolve and close.
describe('what the recorded sender-acknowledge histories exercise', () => {
  it('when a v8 run heard its sender acknowledge, then it holds the patch and moved ACKNOWLEDGED, RESOLVED (sender), CLOSED', () => {
    const s = summary('v8-incident-sender-acknowledged.json');
    expect(s.patches).toContain('sender-acknowledge');
    expect(s.signals).toEqual(['alertsReceived', 'alertsReceived', 'alertsReceived']);
    expect(local(s, 'recordTransition').map((a) => a.result.status)).toEqual(['ACKNOWLEDGED', 'RESOLVED', 'CLOSED']);
    expect(local(s, 'recordAlertsAttached')).toEqual([]);
  });

  it('when a v7 run heard an acknowledged event, then it has no patch and attached the event as an alert', () => {
    const s = summary('v7-incident-sender-acknowledged-unpatched.json');
    expect(s.patches).not.toContain('sender-acknowledge');
    expect(local(s, 'recordAlertsAttached')).toHaveLength(1);
    expect(local(s, 'recordTransition').map((a) => a.result.status)).toEqual(['RESOLVED', 'CLOSED']);
  });

  it('when any other history is read, then it holds no sender-acknowledge patch (only events that hold one ask for it)', () => {
    for (const file of files.filter((f) => !f.includes('sender-acknowledged')))
      expect({ file, patched: summary(file).patches.includes('sender-acknowledge') }).toEqual({ file, patched: false });
  });
});

describe('what the recorded responder histories exercise', () => {
  it.each(RESPONDER_VERSIONS)(
    'when a %s run heard a responder, then it holds each Update in order, the snooze ended on its timer, and the reassign and the merge are moves',
    (v) => {
      const s = summary(`${v}-incident-responder-actions.json`);
      expect(s.updates).toEqual([
        'addIncidentNote',
        'addIncidentResponders',
        'acknowledgeIncident',
        'snoozeIncident',
        'reassignIncident',
        'recordIncidentMerged',
        'resolveIncident',
        'closeIncident',
      ]);
      const moves = local(s, 'recordTransition').map((a) => [a.result.status]);
      expect(moves).toEqual([['ACKNOWLEDGED'], ['TRIGGERED'], ['TRIGGERED'], ['RESOLVED'], ['CLOSED']]);
      expect(local(s, 'recordResponderEntry').length).toBe(3);
      expect(local(s, 'responderRecipients').length).toBe(1);
      expect(s.last).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
    },
  );

  it.each(RESPONDER_VERSIONS)('when a %s run was merged away, then its one move is the merge write, and it closed cleanly', (v) => {
    const s = summary(`${v}-incident-merged-away.json`);
    expect(s.updates).toEqual(['mergeIncidentInto', 'closeIncident']);
    expect(local(s, 'recordMergedAway').map((a) => [a.result.status, a.result.alertsMoved])).toEqual([['RESOLVED', 1]]);
    expect(s.last).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
  });
});

describe('what the recorded grouping histories exercise', () => {
  it('when a page_after history was recorded, then it holds the grouping patch, and no history before v12 does', () => {
    for (const file of files) {
      const patched = summary(file).patches.includes('grouping-page-after');
      if (file.includes('-grouping-page-after')) expect({ file, patched }).toEqual({ file, patched: true });
      if (versionOf(file) < 12) expect({ file, patched }).toEqual({ file, patched: false });
    }
  });

  it.each(PAGE_AFTER_VERSIONS)('when a %s run was held for a second alert, then it paged once, after both alerts arrived', (v) => {
    const s = summary(paging('grouping-page-after', v));
    expect(s.signals.filter((n) => n.startsWith('alert')).length).toBeGreaterThanOrEqual(1);
    expect(local(s, 'sendPage').length + named(s, 'sendPage').length).toBeGreaterThanOrEqual(1);
    expect(s.last).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
  });
});
