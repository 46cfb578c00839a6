/**
 * The fault suite's verdict (pure): what the senders sent and were told, against the rows
 * Postgres holds and the SMS the Twilio fake accepted. Every event's title is unique (payload.ts),
 * so its alert row and "Alert attached" entry are found by it; an SMS names its incident's number.
 */
import { countBy, groupBy, indexLedger, keyTrail, type Ledger, type LedgerIndex } from './ledger';
import type { SentEvent } from './load';

/** The counts of the one line, and why any of them is not what it must be. */
export interface Accounting {
  sent: number;
  accepted: number;
  applied: number;
  incidents: number;
  paged: number;
  lost: number;
  doubledAlerts: number;
  doubledPages: number;
  unpagedFiring: number;
  /** Doubled pages whose incident's timeline does not say the page was retried after an unknown outcome. */
  unmarkedDoubledPages: number;
  /** Merges answered 200 (merges.ts). */
  merges: number;
  /** Alerts not on the incident they were routed to, or, when that one was merged, on the one it was merged into. */
  misplacedAlerts: number;
  /** Merges answered 200 whose incidents do not say so (once each), and merges never finished. */
  badMerges: number;
  /** One line per failure: which event, key or page, what is wrong, and the evidence. */
  problems: string[];
  /** Worth knowing, not a failure (e.g. an incident nobody's accepted event opened). */
  notes: string[];
}

const OPEN = new Set(['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING']);
/** How a page's timeline entry says it was retried while an earlier attempt's outcome was unknown. */
export const UNKNOWN_OUTCOME_MARK = /outcome (?:is |was )?unknown|unknown[- ]outcome/i;
/** The incident number an SMS page starts with (src/domain/paging/messages.ts smsText). */
const SMS_NUMBER = /^Klaxon #(\d+)\b/;

/** How a merged incident's resolve says where it went (src/services/incident/merge-store.ts). */
const MERGED_INTO = /merged into #(\d+)\b/;
/** The entry the incident merged into records (workflows/incident/entity.ts recordMerged). */
export const mergedEntryPrefix = (mergedNumber: number) => `Merged #${mergedNumber} into this incident`;
const MERGED_ENTRY = /^Merged #(\d+) into this incident/;

/** The "Alert attached" entry an attached event leaves (src/services/incident/store.ts). */
export const attachedMessage = (title: string) => `Alert attached: ${title}`;

const label = (e: SentEvent) => `event #${e.n} (${e.kind} ${e.action} of ${e.key}, key ${e.idempotencyKey})`;

/** The verdict over a ledger. */
export function account(ledger: Ledger): Accounting {
  const ix = indexLedger(ledger);
  const merges = mergesOf(ledger, ix);
  const attachedPerMessage = countBy(
    ledger.timeline.filter((t) => t.type === 'alert_attached'),
    (t) => t.message,
  );
  const alertsPerTitle = countBy(ledger.alerts, (a) => a.title);
  const problems: string[] = [];
  const notes: string[] = [];

  let applied = 0;
  let lost = 0;
  let doubledAlerts = 0;
  for (const e of ledger.events) {
    if (e.outcome !== 'accepted') {
      lost++;
      problems.push(
        `lost: ${label(e)} ${e.outcome === 'gave_up' ? 'given up' : 'refused'} after ${e.attempts} attempts (last: ${e.status ?? '-'} ${e.lastError ?? ''})`.trim(),
      );
      continue;
    }
    const why = notApplied(ix, e, attachedPerMessage, merges);
    if (why) {
      lost++;
      problems.push(`lost: ${label(e)}: ${why}. Trail: ${keyTrail(ix, e.key)}`);
    } else applied++;
    if (e.action !== 'trigger') continue;
    const rows = alertsPerTitle.get(e.title) ?? 0;
    const entries = attachedPerMessage.get(attachedMessage(e.title)) ?? 0;
    if (rows > 1 || entries > 1) {
      doubledAlerts++;
      problems.push(`doubled alert: ${label(e)}: ${rows} alert rows, ${entries} "Alert attached" entries`);
    }
  }

  const pages = countPages(ledger, ix, problems, notes);
  const unpagedFiring = checkFiringKeys(ledger, ix, pages.pagedNumbers, merges, problems);
  const misplacedAlerts = checkAlertHomes(ledger, ix, merges, problems);
  const badMerges = checkMerges(ledger, ix, merges, problems, notes);
  const resolvedMoved = resolvesOfMovedAlerts(ix);
  if (resolvedMoved.length)
    notes.push(
      `${resolvedMoved.length} sender resolves were of keys whose alerts a merge had moved (each applied, or counted lost above): ${resolvedMoved.slice(0, 10).join(', ')}`,
    );
  const openers = ledger.outbox.filter((o) => o.kind === 'opened').map((o) => o.eventId);
  const acceptedIds = new Set(ix.accepted.map(ix.eventIdOf));
  const strays = openers.filter((id) => !acceptedIds.has(id));
  if (strays.length) notes.push(`${strays.length} incidents were opened by events no sender was answered 2xx for`);

  return {
    sent: ledger.events.length,
    accepted: ix.accepted.length,
    applied,
    incidents: ledger.incidents.length,
    paged: ledger.incidents.filter((i) => pages.pagedNumbers.has(i.number)).length,
    lost,
    doubledAlerts,
    doubledPages: pages.doubled,
    unpagedFiring,
    unmarkedDoubledPages: pages.unmarked,
    merges: (ledger.merges ?? []).filter((m) => m.outcome === 'merged').length,
    misplacedAlerts,
    badMerges,
    problems,
    notes,
  };
}

/** Why an accepted event is not stored and applied, or null when it is. */
function notApplied(ix: LedgerIndex, e: SentEvent, attachedPerMessage: Map<string, number>, merges: Merges): string | null {
  const record = ix.idempotency.get(e.idempotencyKey);
  if (!record) return 'answered 2xx but no idempotency record was stored';
  if (e.eventId && record.eventId !== e.eventId) return `answered event ${e.eventId} but the idempotency record holds ${record.eventId}`;
  const eventId = ix.eventIdOf(e)!;
  const messages = ix.outboxPerEvent.get(eventId) ?? [];
  if (e.action === 'trigger') {
    const alert = ix.alertsById.get(eventId);
    if (!alert) return `answered 2xx but alert ${eventId} was never stored`;
    if (alert.title !== e.title) return `alert ${eventId} is titled "${alert.title}", not "${e.title}"`;
    if (messages.length === 0) return `alert ${eventId} was stored without an outbox message`;
    const undelivered = messages.find((m) => !m.delivered);
    if (undelivered) return `its ${undelivered.kind} message never reached the workflow of incident ${undelivered.incidentId}`;
    if (messages.some((m) => m.kind === 'attached') && !attachedPerMessage.get(attachedMessage(e.title)))
      return `delivered to incident ${alert.incidentId} but no "Alert attached" entry: the workflow never applied it`;
    return null;
  }
  // A resolve resolves every alert its key fired before it, and resolves each incident it leaves without an active alert.
  const stillActive = (ix.acceptedPerKey.get(e.key) ?? []).filter(
    (t) => t.n < e.n && t.action === 'trigger' && ix.alertsById.get(ix.eventIdOf(t) ?? '')?.status === 'ACTIVE',
  );
  if (stillActive.length) return `the alerts of ${stillActive.map((t) => `#${t.n}`).join(', ')}, fired before it, are still active`;
  for (const m of messages) {
    if (!m.delivered) return `its resolve message never reached the workflow of incident ${m.incidentId}`;
    // A merge that resolved the incident first (its last alert's resolve still on its way) did what the resolve asks.
    if (!ix.resolvedByIngest.has(m.incidentId) && !merges.into.has(m.incidentId))
      return `delivered to incident ${m.incidentId}, which no sender's resolve resolved`;
  }
  return null;
}

/**
 * Pages as the fake saw them. The policy pages one person once per incident (one step, no
 * repeat), so a second SMS to one person for one incident is a doubled page, and its incident's
 * timeline must say the page was retried after an attempt whose outcome was unknown.
 */
function countPages(ledger: Ledger, ix: LedgerIndex, problems: string[], notes: string[]): { pagedNumbers: Set<number>; doubled: number; unmarked: number } {
  const pagedNumbers = new Set<number>();
  const perPage = new Map<string, { number: number; to: string; count: number }>();
  for (const sms of ledger.sms) {
    const m = SMS_NUMBER.exec(sms.body);
    if (!m) {
      notes.push(`an SMS to ${sms.to} names no incident: "${sms.body.slice(0, 80)}"`);
      continue;
    }
    const number = Number(m[1]);
    pagedNumbers.add(number);
    const id = `${number} ${sms.to}`;
    const page = perPage.get(id) ?? { number, to: sms.to, count: 0 };
    page.count++;
    perPage.set(id, page);
  }
  for (const number of pagedNumbers) if (!ix.incidentsByNumber.has(number)) notes.push(`an SMS names incident #${number}, which does not exist`);
  const timelineOf = groupBy(ledger.timeline, (t) => t.incidentId);
  let doubled = 0;
  let unmarked = 0;
  const unrecorded = [...perPage.values()].filter(
    (p) => !(timelineOf.get(ix.incidentsByNumber.get(p.number)?.id ?? '') ?? []).some((t) => t.type === 'notification' && t.message.includes(p.to)),
  );
  if (unrecorded.length)
    notes.push(
      `${unrecorded.length} pages reached the fake with no page entry on their incident's timeline: ${unrecorded.map((p) => `#${p.number} to ${p.to}`).join(', ')}`,
    );
  for (const page of perPage.values()) {
    if (page.count < 2) continue;
    doubled += page.count - 1;
    const incident = ix.incidentsByNumber.get(page.number);
    const entries = timelineOf.get(incident?.id ?? '') ?? [];
    const marked = entries.some(
      (t) => t.type === 'notification' && t.message.includes(page.to) && (t.unknownOutcomeRetry || UNKNOWN_OUTCOME_MARK.test(t.message)),
    );
    if (!marked) {
      unmarked++;
      const said = entries.filter((t) => t.type === 'notification').map((t) => `"${t.message}"`);
      problems.push(`doubled page not marked: incident #${page.number} paged ${page.to} ${page.count} times; its page entries: ${said.join(', ') || 'none'}`);
    }
  }
  return { pagedNumbers, doubled, unmarked };
}

/** Every key whose sender last said "firing" must sit on an open incident that paged; returns how many do not. */
function checkFiringKeys(ledger: Ledger, ix: LedgerIndex, pagedNumbers: Set<number>, merges: Merges, problems: string[]): number {
  const unsure = new Set(ledger.events.filter((e) => e.outcome !== 'accepted').map((e) => e.key));
  let unpaged = 0;
  for (const [key, events] of ix.acceptedPerKey) {
    if (unsure.has(key)) continue; // the sender's own state of it is unknown; already counted lost
    const last = events.reduce((a, b) => (b.n > a.n ? b : a));
    if (last.action !== 'trigger') continue;
    const alert = ix.alertsById.get(ix.eventIdOf(last) ?? '');
    const incident = alert && ix.incidentsById.get(alert.incidentId);
    const routedTo = ix.incidentsById.get(routedIncidentOf(ix, ix.eventIdOf(last) ?? '') ?? '');
    const moved =
      incident && routedTo && routedTo.id !== incident.id && merges.into.has(routedTo.id) ? ` (moved there from #${routedTo.number} by a merge)` : '';
    const why = !incident
      ? 'it has no incident'
      : !OPEN.has(incident.status)
        ? `its alert is on incident #${incident.number}${moved}, which is ${incident.status}`
        : !pagedNumbers.has(incident.number)
          ? `its alert is on incident #${incident.number}${moved} (${incident.status}), which never paged`
          : null;
    if (why) {
      unpaged++;
      problems.push(`unpaged firing: ${key} is firing (last: ${label(last)}) but ${why}. Trail: ${keyTrail(ix, key)}`);
    }
  }
  return unpaged;
}

/** Which incidents were merged into which, as their own resolves say (whoever asked, however often). */
interface Merges {
  /** Merged incident id → the number of the incident it was merged into. */
  into: Map<string, number>;
  /** Each merged incident's "merged into" resolves (one per merge; two would be a merge written twice). */
  resolves: Map<string, number>;
}

function mergesOf(ledger: Ledger, ix: LedgerIndex): Merges {
  const into = new Map<string, number>();
  const resolves = new Map<string, number>();
  for (const t of ledger.timeline) {
    if (t.type !== 'status_change' || t.toStatus !== 'RESOLVED') continue;
    const m = MERGED_INTO.exec(t.message);
    if (!m || !ix.incidentsById.has(t.incidentId)) continue;
    into.set(t.incidentId, Number(m[1]));
    resolves.set(t.incidentId, (resolves.get(t.incidentId) ?? 0) + 1);
  }
  return { into, resolves };
}

/** Accepted resolves of a key with an alert, fired before, that now sits on another incident than it was routed to. */
function resolvesOfMovedAlerts(ix: LedgerIndex): string[] {
  const found: string[] = [];
  for (const e of ix.accepted) {
    if (e.action !== 'resolve') continue;
    const moved = (ix.acceptedPerKey.get(e.key) ?? []).some((t) => {
      if (t.n > e.n || t.action !== 'trigger') return false;
      const id = ix.eventIdOf(t) ?? '';
      const routed = routedIncidentOf(ix, id);
      const alert = ix.alertsById.get(id);
      return !!alert && !!routed && alert.incidentId !== routed;
    });
    if (moved) found.push(`#${e.n}`);
  }
  return found;
}

/** The incident an event's alert was routed to when it was accepted (its outbox message). */
function routedIncidentOf(ix: LedgerIndex, eventId: string): string | undefined {
  return (ix.outboxPerEvent.get(eventId) ?? []).find((o) => o.kind === 'opened' || o.kind === 'attached')?.incidentId;
}

/** Where an incident's alerts belong: itself, or, when it was merged, where the one it was merged into belongs. */
function homeOf(ix: LedgerIndex, merges: Merges, incidentId: string): { id: string; path: number[] } {
  const path = [ix.incidentsById.get(incidentId)?.number ?? -1];
  let id = incidentId;
  for (let hops = 0; hops < 1000; hops++) {
    const target = merges.into.get(id);
    const next = target === undefined ? undefined : ix.incidentsByNumber.get(target);
    if (!next || path.includes(next.number)) break;
    id = next.id;
    path.push(next.number);
  }
  return { id, path };
}

/**
 * Every alert sits on the incident it was routed to, or, when that was merged, on the one it was
 * merged into (and on, through merges of merges): a merge moves each alert once, and loses none.
 */
function checkAlertHomes(ledger: Ledger, ix: LedgerIndex, merges: Merges, problems: string[]): number {
  let misplaced = 0;
  for (const e of ix.accepted) {
    if (e.action !== 'trigger') continue;
    const eventId = ix.eventIdOf(e) ?? '';
    const alert = ix.alertsById.get(eventId);
    const routed = routedIncidentOf(ix, eventId);
    if (!alert || !routed) continue; // counted lost above
    const home = homeOf(ix, merges, routed);
    if (alert.incidentId === home.id) continue;
    misplaced++;
    const on = ix.incidentsById.get(alert.incidentId)?.number ?? '?';
    const chain = home.path.length > 1 ? `, merged ${home.path.map((n) => `#${n}`).join(' into ')}` : '';
    problems.push(
      `misplaced alert: ${label(e)} is on incident #${on}, not #${home.path.at(-1)} (routed to #${home.path[0]}${chain}). Trail: ${keyTrail(ix, e.key)}`,
    );
  }
  return misplaced;
}

/**
 * Each merge answered 200: the merged incident is resolved "merged into #N" once, and the
 * incident merged into records it once (a merge finished by asking again writes nothing twice).
 * A merge never answered 200 is a failure; one refused (an incident no longer open) is a note.
 */
function checkMerges(ledger: Ledger, ix: LedgerIndex, merges: Merges, problems: string[], notes: string[]): number {
  let bad = 0;
  const records = ledger.merges ?? [];
  const recordedPer = countBy(
    ledger.timeline.filter((t) => t.type === 'merged'),
    (t) => `${t.incidentId} ${MERGED_ENTRY.exec(t.message)?.[1] ?? '?'}`,
  );
  for (const r of records) {
    const what = `merge #${r.n} (#${r.mergedNumber} into #${r.targetNumber}, ${r.attempts} attempts${r.cut ? `, workers killed ${r.cut}` : ''})`;
    if (r.outcome === 'refused') {
      notes.push(`${what} was refused: ${r.status} ${r.lastError ?? ''}`.trim());
      continue;
    }
    if (r.outcome !== 'merged') {
      bad++;
      problems.push(`merge not finished: ${what} never answered 200 (last: ${r.status ?? '-'} ${r.lastError ?? ''})`.trim());
      continue;
    }
    const merged = ix.incidentsById.get(r.mergedId);
    const why: string[] = [];
    if (merges.into.get(r.mergedId) !== r.targetNumber) why.push(`#${r.mergedNumber} does not say it was merged into #${r.targetNumber}`);
    else if ((merges.resolves.get(r.mergedId) ?? 0) > 1) why.push(`#${r.mergedNumber} was resolved "merged into" ${merges.resolves.get(r.mergedId)} times`);
    if (merged?.status !== 'RESOLVED') why.push(`#${r.mergedNumber} is ${merged?.status ?? 'missing'}`);
    const recorded = recordedPer.get(`${r.targetId} ${r.mergedNumber}`) ?? 0;
    if (recorded !== 1) why.push(`#${r.targetNumber} has ${recorded} "${mergedEntryPrefix(r.mergedNumber)}" entries`);
    if (why.length) {
      bad++;
      problems.push(`bad merge: ${what}: ${why.join('; ')}`);
    }
  }
  const cut = records.filter((r) => r.cut);
  if (cut.length)
    notes.push(
      `merges cut short by the workers' kill -9: ${cut.map((r) => `#${r.mergedNumber} into #${r.targetNumber} (${r.cut}, ${r.outcome} after ${r.attempts} attempts)`).join('; ')}`,
    );
  return bad;
}

/** The suite's one line. */
export function summaryLine(a: Accounting): string {
  return `sent ${a.sent} accepted ${a.accepted} applied ${a.applied} incidents ${a.incidents} paged ${a.paged} lost ${a.lost} doubled_alerts ${a.doubledAlerts} doubled_pages ${a.doubledPages} unpaged_firing ${a.unpagedFiring} merges ${a.merges} misplaced_alerts ${a.misplacedAlerts} bad_merges ${a.badMerges}`;
}

/**
 * Fails on a lost event, a doubled alert, a firing key without an open paged incident, a doubled
 * page nobody marked, an alert a merge left in the wrong place, or a merge not done as answered.
 */
export function failed(a: Accounting): boolean {
  return a.lost > 0 || a.doubledAlerts > 0 || a.unpagedFiring > 0 || a.unmarkedDoubledPages > 0 || a.misplacedAlerts > 0 || a.badMerges > 0;
}
