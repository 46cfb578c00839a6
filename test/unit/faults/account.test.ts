import { randomUUID } from 'node:crypto';
import { account, attachedMessage, failed, summaryLine } from '../../faults/account';
import type { AlertRow, IdempotencyRow, IncidentRow, Ledger, OutboxRow, SmsRow, TimelineRow } from '../../faults/ledger';
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

  resolve(key: string): SentEvent {
    const e = this.sent(key, 'resolve', 'resolve');
    const incident = this.open.get(key);
    this.idempotency.push({ key: e.idempotencyKey, eventId: e.eventId!, incidentId: incident?.id ?? '00000000-0000-0000-0000-000000000000' });
    for (const t of this.events.filter((t) => t.key === key && t.action === 'trigger')) this.alertOf(t).status = 'RESOLVED';
    if (incident) {
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
      this.open.delete(key);
    }
    return e;
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
    expect(summaryLine(verdict)).toBe('sent 6 accepted 6 applied 6 incidents 3 paged 3 lost 0 doubled_alerts 0 doubled_pages 0 unpaged_firing 0');
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
