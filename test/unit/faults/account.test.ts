import { randomUUID } from 'node:crypto';
import { account, attachedMessage, failed, mergedEntryPrefix, summaryLine } from '../../faults/account';
import type { AlertRow, IdempotencyRow, IncidentRow, Ledger, MergeRecord, OutboxRow, SmsRow, TimelineRow } from '../../faults/ledger';
import type { SentEvent } from '../../faults/load';

const PHONE = '+15550001111';

/**
 * A run as a correct system would leave it: each fire of a key with no open incident opens one
 * (and pages once), a fire with one attaches, a resolve resolves the key's alerts and its
 * incident. Tests then break one thing and look at the verdict.
 */
class World {
  readonly events: SentEvent[] = [];
  readonly idempotency: IdempotencyRow[] = [];
  readonly alerts: AlertRow[] = [];
  readonly incidents: IncidentRow[] = [];
  readonly timeline: TimelineRow[] = [];
  readonly outbox: OutboxRow[] = [];
  readonly sms: SmsRow[] = [];
  readonly merges: MergeRecord[] = [];
  private readonly open = new Map<string, IncidentRow>();

  private sent(key: string, action: SentEvent['action'], kind: SentEvent['kind']): SentEvent {
    const n = this.events.length + 1;
    const e: SentEvent = {
      n,
      source: 0,
      key,
      action,
      kind,
      idempotencyKey: `run-${n}`,
      title: `faults run #${n}`,
      sentAt: n * 1000,
      acceptedAt: n * 1000 + 5,
      attempts: 1,
      outcome: 'accepted',
      status: 202,
      eventId: randomUUID(),
    };
    this.events.push(e);
    return e;
  }

  fire(key: string): SentEvent {
    const existing = this.open.get(key);
    const e = this.sent(key, 'trigger', existing ? 'repeat' : 'new');
    const incident = existing ?? { id: randomUUID(), number: this.incidents.length + 1, status: 'TRIGGERED' };
    e.incidentId = incident.id;
    this.idempotency.push({ key: e.idempotencyKey, eventId: e.eventId!, incidentId: incident.id });
    this.alerts.push({ id: e.eventId!, incidentId: incident.id, title: e.title, status: 'ACTIVE' });
    this.outbox.push({ incidentId: incident.id, eventId: e.eventId!, kind: existing ? 'attached' : 'opened', delivered: true });
    if (existing) {
      this.timeline.push({ incidentId: incident.id, type: 'alert_attached', toStatus: null, via: 'ingest', message: attachedMessage(e.title) });
    } else {
      this.incidents.push(incident);
      this.open.set(key, incident);
      this.timeline.push({
        incidentId: incident.id,
        type: 'created',
        toStatus: 'TRIGGERED',
        via: 'ingest',
        message: `Incident #${incident.number} opened by an alert: ${e.title}`,
      });
      this.timeline.push({ incidentId: incident.id, type: 'notification', toStatus: null, via: 'sms', message: `SMS to a@example.test (${PHONE}) sent` });
      this.sms.push({ to: PHONE, body: `Klaxon #${incident.number} CRITICAL: ${e.title}. Reply 1A to acknowledge, 1R to resolve` });
    }
    return e;
  }

  /** As ingestion does: resolves the key's active alerts wherever they sit, and each open incident left without an active alert. */
  resolve(key: string): SentEvent {
    const e = this.sent(key, 'resolve', 'resolve');
    const fired = this.events.filter((t) => t.key === key && t.action === 'trigger').map((t) => this.alertOf(t));
    const touched = [...new Set(fired.filter((a) => a.status === 'ACTIVE').map((a) => a.incidentId))].map((id) => this.incidents.find((i) => i.id === id)!);
    for (const a of fired) a.status = 'RESOLVED';
    const resolved = touched.filter((i) => i.status !== 'RESOLVED' && !this.alerts.some((a) => a.incidentId === i.id && a.status === 'ACTIVE'));
    this.idempotency.push({ key: e.idempotencyKey, eventId: e.eventId!, incidentId: resolved[0]?.id ?? '00000000-0000-0000-0000-000000000000' });
    for (const incident of resolved) {
      this.outbox.push({ incidentId: incident.id, eventId: e.eventId!, kind: 'resolved', delivered: true });
      this.timeline.push({
        incidentId: incident.id,
        type: 'status_change',
        toStatus: 'RESOLVED',
        via: 'ingest',
        message: 'Resolved (TRIGGERED → RESOLVED)',
        createdAt: new Date(e.n * 1000 + 50).toISOString(),
      });
      incident.status = 'RESOLVED';
      for (const [k, open] of this.open) if (open === incident) this.open.delete(k);
    }
    return e;
  }

  /** As a merge does: the merged incident's alerts move to the target, it resolves "merged into #N", the target records it once. */
  merge(target: IncidentRow, merged: IncidentRow): MergeRecord {
    const moved = this.alerts.filter((a) => a.incidentId === merged.id);
    for (const a of moved) a.incidentId = target.id;
    const count = `${moved.length} alert${moved.length === 1 ? '' : 's'} moved`;
    this.timeline.push({
      incidentId: merged.id,
      type: 'status_change',
      toStatus: 'RESOLVED',
      via: 'dashboard',
      message: `Resolved — merged into #${target.number} (${count}) (TRIGGERED → RESOLVED)`,
    });
    this.timeline.push({ incidentId: target.id, type: 'merged', toStatus: null, via: 'dashboard', message: `${mergedEntryPrefix(merged.number)} (${count})` });
    merged.status = 'RESOLVED';
    for (const [k, open] of this.open) if (open === merged) this.open.delete(k);
    const record: MergeRecord = {
      n: this.merges.length + 1,
      targetId: target.id,
      targetNumber: target.number,
      mergedId: merged.id,
      mergedNumber: merged.number,
      startedAt: 1,
      answeredAt: 2,
      attempts: 1,
      outcome: 'merged',
      status: 200,
      alertsMoved: moved.length,
    };
    this.merges.push(record);
    return record;
  }

  alertOf(e: SentEvent): AlertRow {
    return this.alerts.find((a) => a.id === e.eventId)!;
  }

  incidentOf(e: SentEvent): IncidentRow {
    return this.incidents.find((i) => i.id === this.alertOf(e).incidentId)!;
  }

  ledger(): Ledger {
    return {
      events: this.events,
      idempotency: this.idempotency,
      alerts: this.alerts,
      incidents: this.incidents,
      timeline: this.timeline,
      outbox: this.outbox,
      sms: this.sms,
      merges: this.merges,
    };
  }
}

/** Two keys: one opened, attached, resolved and re-fired; one opened and resolved. */
function healthyRun(): World {
  const w = new World();
  w.fire('a');
  w.fire('b');
  w.fire('a');
  w.resolve('a');
  w.resolve('b');
  w.fire('a');
  return w;
}

describe('fault suite accounting', () => {
  it('when every event was stored and applied and each incident paged once, then the line has no failure in it', () => {
    const verdict = account(healthyRun().ledger());
    expect(summaryLine(verdict)).toBe(
      'sent 6 accepted 6 applied 6 incidents 3 paged 3 lost 0 doubled_alerts 0 doubled_pages 0 unpaged_firing 0 merges 0 misplaced_alerts 0 bad_merges 0',
    );
    expect(verdict.problems).toEqual([]);
    expect(failed(verdict)).toBe(false);
  });

  it('when a sender gave up on an event, then it is lost', () => {
    const w = healthyRun();
    Object.assign(w.events[5], { outcome: 'gave_up', attempts: 40, status: 503, lastError: 'unavailable' });
    const verdict = account(w.ledger());
    expect([verdict.accepted, verdict.lost]).toEqual([5, 1]);
    expect(verdict.problems[0]).toMatch(/^lost: event #6 .* given up after 40 attempts \(last: 503 unavailable\)/);
    expect(failed(verdict)).toBe(true);
  });

  it('when an event was answered 2xx but its alert row is missing, then it is lost', () => {
    const w = healthyRun();
    w.alerts.splice(w.alerts.indexOf(w.alertOf(w.events[2])), 1);
    const verdict = account(w.ledger());
    expect([verdict.applied, verdict.lost]).toEqual([5, 1]);
    expect(verdict.problems.join('\n')).toContain('event #3 (repeat trigger of a, key run-3): answered 2xx but alert');
  });

  it('when an answered event has no idempotency record, then it is lost', () => {
    const w = healthyRun();
    w.idempotency.splice(1, 1);
    expect(account(w.ledger()).problems[0]).toContain('event #2 (new trigger of b, key run-2): answered 2xx but no idempotency record was stored');
  });

  it('when an attached event was delivered but the workflow wrote no "Alert attached" entry, then it is lost', () => {
    const w = healthyRun();
    w.timeline.splice(
      w.timeline.findIndex((t) => t.type === 'alert_attached'),
      1,
    );
    const verdict = account(w.ledger());
    expect(verdict.lost).toBe(1);
    expect(verdict.problems[0]).toContain('no "Alert attached" entry: the workflow never applied it');
  });

  it('when an opening event never left the outbox, then it is lost', () => {
    const w = healthyRun();
    w.outbox[0].delivered = false;
    expect(account(w.ledger()).problems[0]).toContain('its opened message never reached the workflow');
  });

  it('when a resolve left an alert fired before it active, then it is lost', () => {
    const w = healthyRun();
    w.alertOf(w.events[1]).status = 'ACTIVE';
    const verdict = account(w.ledger());
    expect(verdict.lost).toBe(1);
    expect(verdict.problems[0]).toContain('event #5 (resolve resolve of b, key run-5): the alerts of #2, fired before it, are still active');
  });

  it('when a resolve was delivered but its incident was never resolved by it, then it is lost', () => {
    const w = healthyRun();
    w.timeline.splice(
      w.timeline.findIndex((t) => t.type === 'status_change'),
      1,
    );
    expect(account(w.ledger()).problems[0]).toMatch(/event #4 .*: delivered to incident .*, which no sender's resolve resolved/);
  });

  it('when one event left two "Alert attached" entries, then it is a doubled alert', () => {
    const w = healthyRun();
    w.timeline.push({ ...w.timeline.find((t) => t.type === 'alert_attached')! });
    const verdict = account(w.ledger());
    expect(verdict.doubledAlerts).toBe(1);
    expect(verdict.problems[0]).toContain('doubled alert: event #3 (repeat trigger of a, key run-3): 1 alert rows, 2 "Alert attached" entries');
    expect(failed(verdict)).toBe(true);
  });

  it('when one event was stored as two alert rows (its key replayed as new), then it is a doubled alert', () => {
    const w = healthyRun();
    w.alerts.push({ ...w.alertOf(w.events[0]), id: randomUUID() });
    expect(account(w.ledger()).doubledAlerts).toBe(1);
  });

  it('when a person got one page twice and the timeline does not say why, then the doubled page fails the run', () => {
    const w = healthyRun();
    w.sms.push({ ...w.sms[0] });
    const verdict = account(w.ledger());
    expect(verdict.doubledPages).toBe(1);
    expect(verdict.unmarkedDoubledPages).toBe(1);
    expect(verdict.problems[0]).toBe(`doubled page not marked: incident #1 paged ${PHONE} 2 times; its page entries: "SMS to a@example.test (${PHONE}) sent"`);
    expect(failed(verdict)).toBe(true);
  });

  it('when a doubled page is marked on its timeline as a retry after an unknown outcome, then it is counted and the run passes', () => {
    const w = healthyRun();
    w.sms.push({ ...w.sms[0] }, { ...w.sms[0] });
    const entry = w.timeline.find((t) => t.type === 'notification' && t.incidentId === w.incidents[0].id)!;
    entry.message += "; retried: the previous attempt's outcome is unknown, so this may have been sent twice";
    const verdict = account(w.ledger());
    expect(summaryLine(verdict)).toContain('doubled_pages 2 unpaged_firing 0');
    expect(failed(verdict)).toBe(false);
  });

  it('when the mark is structured data on the entry, then it counts as marked too', () => {
    const w = healthyRun();
    w.sms.push({ ...w.sms[0] });
    w.timeline.find((t) => t.type === 'notification')!.unknownOutcomeRetry = true;
    expect(account(w.ledger()).unmarkedDoubledPages).toBe(0);
  });

  it('when a re-fire attached to the incident its resolve then closed, then the firing key is unpaged, with its trail', () => {
    const w = new World();
    w.fire('k');
    w.resolve('k');
    // What the flapping bug does: the re-fire routes to the incident the resolve is closing.
    const refire = w.fire('k');
    const first = w.incidents[0];
    w.incidents.pop();
    w.sms.pop();
    w.alertOf(refire).incidentId = first.id;
    w.outbox[w.outbox.length - 1] = { ...w.outbox[w.outbox.length - 1], incidentId: first.id, kind: 'attached' };
    w.timeline.push({ incidentId: first.id, type: 'alert_attached', toStatus: null, via: 'ingest', message: attachedMessage(refire.title) });
    const verdict = account(w.ledger());
    expect(verdict.unpagedFiring).toBe(1);
    expect(verdict.problems).toEqual([
      'unpaged firing: k is firing (last: event #3 (new trigger of k, key run-3)) but its alert is on incident #1, which is RESOLVED. ' +
        'Trail: 00:00:01.005 #1 fired → opened #1; 00:00:02.005 #2 resolved → resolves #1 (RESOLVED at 00:00:02.050); 00:00:03.005 #3 fired → attached #1',
    ]);
    expect(failed(verdict)).toBe(true);
  });

  it('when a firing key sits on an open incident that never paged, then it is unpaged', () => {
    const w = new World();
    w.fire('k');
    w.sms.length = 0;
    const verdict = account(w.ledger());
    expect(verdict.unpagedFiring).toBe(1);
    expect(verdict.paged).toBe(0);
    expect(verdict.problems[0]).toContain('its alert is on incident #1 (TRIGGERED), which never paged');
  });

  it('when a key had an event that was not accepted, then its final state is unknown and only the lost event is reported', () => {
    const w = new World();
    w.fire('k');
    w.sms.length = 0;
    const e = w.resolve('k');
    e.outcome = 'refused';
    const verdict = account(w.ledger());
    expect([verdict.lost, verdict.unpagedFiring]).toEqual([1, 0]);
  });

  it('when a page reached the fake but its incident timeline has no entry for it, then it is a note, not a failure', () => {
    const w = healthyRun();
    w.timeline.splice(
      w.timeline.findIndex((t) => t.type === 'notification'),
      1,
    );
    const verdict = account(w.ledger());
    expect(verdict.notes).toEqual([`1 pages reached the fake with no page entry on their incident's timeline: #1 to ${PHONE}`]);
    expect(failed(verdict)).toBe(false);
  });

  it('when an SMS names no incident, then it is a note, not a failure', () => {
    const w = healthyRun();
    w.sms.push({ to: PHONE, body: 'hello' });
    const verdict = account(w.ledger());
    expect(verdict.notes).toEqual([`an SMS to ${PHONE} names no incident: "hello"`]);
    expect(failed(verdict)).toBe(false);
  });
});

/** Keys a and b each open an incident; b's (#2) is merged into a's (#1); then b fires again (a new incident, #3) and resolves. */
function mergedRun() {
  const w = new World();
  const a = w.fire('a');
  const b = w.fire('b');
  w.fire('b');
  const record = w.merge(w.incidentOf(a), w.incidentOf(b));
  const refire = w.fire('b');
  return { w, a, b, record, refire };
}

describe('fault suite accounting of merges', () => {
  it('when a merge moved every alert once and both incidents say so once, then the run passes and the line counts the merge', () => {
    const { w, a, b, refire } = mergedRun();
    expect(w.incidentOf(b).number).toBe(1);
    expect(w.incidentOf(refire).number).toBe(3);
    const verdict = account(w.ledger());
    expect(verdict.problems).toEqual([]);
    expect(summaryLine(verdict)).toBe(
      'sent 4 accepted 4 applied 4 incidents 3 paged 3 lost 0 doubled_alerts 0 doubled_pages 0 unpaged_firing 0 merges 1 misplaced_alerts 0 bad_merges 0',
    );
    expect(failed(verdict)).toBe(false);
    expect(w.incidentOf(a).status).toBe('TRIGGERED');
  });

  it("when a sender's later resolve resolves the moved alerts on the target, then it is applied and the target stays open for the alerts still firing", () => {
    const { w, a } = mergedRun();
    w.resolve('b');
    const verdict = account(w.ledger());
    expect(verdict.problems).toEqual([]);
    expect(verdict.notes).toContain('1 sender resolves were of keys whose alerts a merge had moved (each applied, or counted lost above): #5');
    expect(w.incidentOf(a)).toMatchObject({ number: 1, status: 'TRIGGERED' });
  });

  it('when a moved alert stayed active after its sender resolved it, then the resolve is lost', () => {
    const { w, b } = mergedRun();
    w.resolve('b');
    w.alertOf(b).status = 'ACTIVE';
    const verdict = account(w.ledger());
    expect(verdict.lost).toBe(1);
    expect(verdict.problems[0]).toContain('event #5 (resolve resolve of b, key run-5): the alerts of #2, fired before it, are still active');
  });

  it('when an alert of the merged incident was left behind on it, then it is misplaced and the run fails', () => {
    const { w, b } = mergedRun();
    const merged = w.incidents[1];
    w.alertOf(b).incidentId = merged.id;
    const verdict = account(w.ledger());
    expect(verdict.misplacedAlerts).toBe(1);
    expect(verdict.problems[0]).toMatch(
      /^misplaced alert: event #2 \(new trigger of b, key run-2\) is on incident #2, not #1 \(routed to #2, merged #2 into #1\)\. Trail: /,
    );
    expect(failed(verdict)).toBe(true);
  });

  it('when an alert of an incident nobody merged moved elsewhere, then it is misplaced', () => {
    const { w, refire } = mergedRun();
    w.alertOf(refire).incidentId = w.incidents[0].id;
    const verdict = account(w.ledger());
    expect(verdict.misplacedAlerts).toBe(1);
    expect(verdict.problems[0]).toContain('is on incident #1, not #3 (routed to #3)');
  });

  it('when an incident merged into one later merged itself, then its alerts belong where the last merge took them', () => {
    const w = new World();
    const a = w.fire('a');
    const b = w.fire('b');
    const c = w.fire('c');
    w.merge(w.incidentOf(a), w.incidentOf(b));
    w.merge(w.incidentOf(c), w.incidentOf(a));
    expect(w.incidentOf(b).number).toBe(3);
    expect(account(w.ledger()).problems).toEqual([]);
    w.alertOf(b).incidentId = w.incidents[0].id;
    expect(account(w.ledger()).problems.join('\n')).toContain(
      'misplaced alert: event #2 (new trigger of b, key run-2) is on incident #1, not #3 (routed to #2, merged #2 into #1 into #3). Trail: 00:00:02.005 #2 fired → opened #2, now on #1',
    );
  });

  it('when the target recorded a merge finished by asking again twice, then it is a bad merge', () => {
    const { w, record } = mergedRun();
    record.attempts = 3;
    record.cut = 'between its two steps';
    w.timeline.push({ ...w.timeline.find((t) => t.type === 'merged')! });
    const verdict = account(w.ledger());
    expect(verdict.badMerges).toBe(1);
    expect(verdict.problems).toEqual([
      `bad merge: merge #1 (#2 into #1, 3 attempts, workers killed between its two steps): #1 has 2 "${mergedEntryPrefix(2)}" entries`,
    ]);
    expect(failed(verdict)).toBe(true);
  });

  it('when a merge answered 200 but the merged incident is still open and says nothing, then it is a bad merge', () => {
    const { w } = mergedRun();
    w.timeline.splice(
      w.timeline.findIndex((t) => t.type === 'status_change' && t.message.includes('merged into')),
      1,
    );
    w.incidents[1].status = 'TRIGGERED';
    const verdict = account(w.ledger());
    expect(verdict.badMerges).toBe(1);
    expect(verdict.problems.at(-1)).toBe('bad merge: merge #1 (#2 into #1, 1 attempts): #2 does not say it was merged into #1; #2 is TRIGGERED');
  });

  it('when a merge never answered 200, then it fails the run; when one was refused (no longer open), it is a note', () => {
    const { w, record } = mergedRun();
    Object.assign(record, { outcome: 'gave_up', status: 0, lastError: 'TimeoutError', attempts: 30 });
    w.merges.push({ ...record, n: 2, outcome: 'refused', status: 409, lastError: 'it is RESOLVED', attempts: 1 });
    const verdict = account(w.ledger());
    expect(verdict.badMerges).toBe(1);
    expect(verdict.problems).toEqual(['merge not finished: merge #1 (#2 into #1, 30 attempts) never answered 200 (last: 0 TimeoutError)']);
    expect(verdict.notes).toContain('merge #2 (#2 into #1, 1 attempts) was refused: 409 it is RESOLVED');
    expect(failed(verdict)).toBe(true);
  });

  it("when a sender's resolve reached an incident a merge had resolved first, then the resolve is applied", () => {
    const w = new World();
    const a = w.fire('a');
    const b = w.fire('b');
    const merged = w.incidentOf(b);
    // b's resolve is accepted (its alert resolved, a resolve queued for #2) before the merge resolves #2.
    const e = w.resolve('b');
    w.timeline.splice(
      w.timeline.findIndex((t) => t.incidentId === merged.id && t.type === 'status_change'),
      1,
    );
    merged.status = 'TRIGGERED';
    w.merge(w.incidentOf(a), merged);
    const verdict = account(w.ledger());
    expect(verdict.problems).toEqual([]);
    expect(e.n).toBe(3);
  });

  it('when a firing key was moved to a target that then resolved, then it is unpaged, and says it was moved there', () => {
    const { w, a, b } = mergedRun();
    w.resolve('b');
    const refire = w.events.length;
    // b fires again and its alert is moved onto #1; then #1 is resolved though b's alert is active.
    const again = w.fire('b');
    w.merge(w.incidents[0], w.incidentOf(again));
    w.incidentOf(a).status = 'RESOLVED';
    const verdict = account(w.ledger());
    expect(verdict.unpagedFiring).toBe(2);
    expect(verdict.problems.join('\n')).toContain(`but its alert is on incident #1 (moved there from #4 by a merge), which is RESOLVED`);
    expect(refire).toBe(5);
    expect(w.alertOf(b).status).toBe('RESOLVED');
  });
});
