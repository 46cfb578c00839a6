import { describeFailure, isTemporalOutage } from './outage';
import type { FailedRow, PendingRow } from './outbox-rows';

/**
 * What happens to an outbox message after a failed delivery. A failure that is not an outage
 * counts an attempt and backs the message off (1 s, doubling, at most 5 min), so it is not
 * retried at the head of the queue; at MAX_ATTEMPTS it is parked: a dead letter, delivered again
 * only after `klaxon outbox retry`. An outage changes neither: the relay's sweep retries it.
 */
export const MAX_ATTEMPTS = 5;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 5 * 60_000;

/** A message's delivery state after a failure. */
export interface AfterFailure {
  /** Failed attempts counted so far. */
  attempts: number;
  /** Not retried before this many ms from now; null: as soon as the relay sweeps (unchanged backoff). */
  retryInMs: number | null;
  park: boolean;
}

/** The next state of a message that had `attempts` counted failures and failed again. */
export function afterFailure(attempts: number, outage: boolean): AfterFailure {
  if (outage) return { attempts, retryInMs: null, park: false };
  const counted = attempts + 1;
  if (counted >= MAX_ATTEMPTS) return { attempts: counted, retryInMs: null, park: true };
  return { attempts: counted, retryInMs: Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (counted - 1)), park: false };
}

/** A failed batch's rows as the relay records them: the error, and each row's next state. */
export function afterFailedBatch(rows: PendingRow[], error: unknown): Array<FailedRow & Pick<PendingRow, 'incident_id' | 'kind'> & { outage: boolean }> {
  const outage = isTemporalOutage(error);
  const message = describeFailure(error);
  return rows.map((row) => ({ id: row.id, incident_id: row.incident_id, kind: row.kind, error: message, outage, ...afterFailure(row.attempts, outage) }));
}
