/**
 * What the verdict is drawn from (pure): the senders' events, the rows Postgres holds and the SMS
 * the fake accepted, indexed the ways the accounting looks them up; and one key's trail, the
 * evidence printed beside a failure (what was sent when, and where each event landed).
 */
import type { SentEvent } from './load';

/** An idempotency record of one of the run's sources. */
export interface IdempotencyRow {
  key: string;
  eventId: string;
  incidentId: string;
}

export interface AlertRow {
  id: string;
  incidentId: string;
  title: string;
  status: string;
}

export interface IncidentRow {
  id: string;
  number: number;
  status: string;
}

export interface TimelineRow {
  incidentId: string;
  type: string;
  toStatus: string | null;
  via: string | null;
  message: string;
  /** ISO time the entry was written. */
  createdAt?: string;
  /** Set when the entry carries structured data that says the page was retried after an unknown outcome. */
  unknownOutcomeRetry?: boolean;
}

export interface OutboxRow {
  incidentId: string;
  eventId: string;
  kind: string;
  delivered: boolean;
}

/** One SMS the fake accepted. */
export interface SmsRow {
  to: string;
  body: string;
}

/** Everything the verdict is drawn from. */
export interface Ledger {
  events: readonly SentEvent[];
  idempotency: readonly IdempotencyRow[];
  alerts: readonly AlertRow[];
  incidents: readonly IncidentRow[];
  timeline: readonly TimelineRow[];
  outbox: readonly OutboxRow[];
  sms: readonly SmsRow[];
  /** The merges the suite asked for during the load (none in a run without the merger). */
  merges?: readonly MergeRecord[];
}

export const countBy = <T>(items: readonly T[], key: (item: T) => string): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};

export const groupBy = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
};

/** The ledger's rows by the keys the accounting looks them up by. */
export function indexLedger(ledger: Ledger) {
  const idempotency = new Map(ledger.idempotency.map((r) => [r.key, r]));
  const accepted = ledger.events.filter((e) => e.outcome === 'accepted');
  return {
    idempotency,
    alertsById: new Map(ledger.alerts.map((a) => [a.id, a])),
    incidentsById: new Map(ledger.incidents.map((i) => [i.id, i])),
    incidentsByNumber: new Map(ledger.incidents.map((i) => [i.number, i])),
    outboxPerEvent: groupBy(ledger.outbox, (o) => o.eventId),
    /** Each incident's status_change to RESOLVED made by a sender's resolve. */
    resolvedByIngest: new Map(
      ledger.timeline.filter((t) => t.type === 'status_change' && t.toStatus === 'RESOLVED' && t.via === 'ingest').map((t) => [t.incidentId, t]),
    ),
    accepted,
    acceptedPerKey: groupBy(accepted, (e) => e.key),
    /** The event id the system gave an accepted event: from its answer, else from its idempotency record. */
    eventIdOf: (e: SentEvent): string | undefined => e.eventId ?? idempotency.get(e.idempotencyKey)?.eventId,
  };
}

export type LedgerIndex = ReturnType<typeof indexLedger>;

/** `21:37:02.406` (UTC) of a time in ms or ISO, for trails. */
const clock = (at: number | string | undefined) => (at === undefined ? '?' : new Date(at).toISOString().slice(11, 23));

/**
 * One key's accepted events in order, each with when it was accepted and where it landed:
 * `21:36:57.685 #15 fired → opened #8; 21:36:58.596 #16 resolved → resolves #8 (RESOLVED at 21:37:08.466)`.
 */
export function keyTrail(ix: LedgerIndex, key: string): string {
  const events = [...(ix.acceptedPerKey.get(key) ?? [])].sort((a, b) => a.n - b.n);
  return events
    .map((e) => {
      const id = ix.eventIdOf(e) ?? '';
      const messages = ix.outboxPerEvent.get(id) ?? [];
      const number = (incidentId: string) => `#${ix.incidentsById.get(incidentId)?.number ?? '?'}`;
      if (e.action === 'trigger') {
        const alert = ix.alertsById.get(id);
        const routed = messages.find((m) => m.kind === 'opened' || m.kind === 'attached')?.incidentId;
        const now = alert && routed && alert.incidentId !== routed ? `, now on ${number(alert.incidentId)}` : '';
        return `${clock(e.acceptedAt)} #${e.n} fired → ${messages[0]?.kind ?? 'stored'} ${alert ? number(routed ?? alert.incidentId) : '(no alert row)'}${now}`;
      }
      const resolves = messages.map((m) => `${number(m.incidentId)} (RESOLVED at ${clock(ix.resolvedByIngest.get(m.incidentId)?.createdAt)})`);
      return `${clock(e.acceptedAt)} #${e.n} resolved${resolves.length ? ` → resolves ${resolves.join(', ')}` : ''}`;
    })
    .join('; ');
}

/** One merge the suite asked for (merges.ts): which incident into which, and how it ended. */
export interface MergeRecord {
  /** Order of asking. */
  n: number;
  targetId: string;
  targetNumber: number;
  mergedId: string;
  mergedNumber: number;
  /** When it was first asked and when a 200 came (ms since the epoch). */
  startedAt: number;
  answeredAt?: number;
  attempts: number;
  /** merged: answered 200; refused: a 4xx (one of them was no longer open); gave_up: never answered 200. */
  outcome: 'pending' | 'merged' | 'refused' | 'gave_up';
  status?: number;
  lastError?: string;
  alertsMoved?: number;
  /** The fault cut it short: the workers were killed -9 while it ran (see `cut`). */
  cut?: string;
}
