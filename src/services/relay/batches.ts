/**
 * How the outbox relay cuts a pass into signals: rows grouped by incident (incidents in the order
 * of their oldest row), each incident's rows in their original order, cut into batches of at most
 * `maxPerBatch`. Every incident's batches must go out one after the other, in this order.
 *
 * An incident whose first row `failedBefore` sends that row alone first: when a signal is refused
 * for one bad event, the retry finds out which, and only that row goes on to be parked, not the
 * hundreds it happened to travel with.
 */
export function batchesPerIncident<T extends { incident_id: string }>(
  rows: readonly T[],
  maxPerBatch: number,
  failedBefore: (row: T) => boolean = () => false,
): T[][][] {
  if (!(maxPerBatch >= 1)) throw new RangeError(`maxPerBatch must be at least 1, got ${maxPerBatch}`);
  const byIncident = new Map<string, T[]>();
  for (const row of rows) {
    const own = byIncident.get(row.incident_id);
    if (own) own.push(row);
    else byIncident.set(row.incident_id, [row]);
  }
  return [...byIncident.values()].map((own) => {
    const batches: T[][] = [];
    const first = own.length > 1 && failedBefore(own[0]) ? 1 : 0;
    if (first) batches.push([own[0]]);
    for (let i = first; i < own.length; i += maxPerBatch) batches.push(own.slice(i, i + maxPerBatch));
    return batches;
  });
}
