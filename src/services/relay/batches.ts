/**
 * How the outbox relay cuts a pass into signals: rows grouped by incident (incidents in the order
 * of their oldest row), each incident's rows in their original order, cut into batches of at most
 * `maxPerBatch`. Every incident's batches must go out one after the other, in this order.
 */
export function batchesPerIncident<T extends { incident_id: string }>(rows: readonly T[], maxPerBatch: number): T[][][] {
  if (!(maxPerBatch >= 1)) throw new RangeError(`maxPerBatch must be at least 1, got ${maxPerBatch}`);
  const byIncident = new Map<string, T[]>();
  for (const row of rows) {
    const own = byIncident.get(row.incident_id);
    if (own) own.push(row);
    else byIncident.set(row.incident_id, [row]);
  }
  return [...byIncident.values()].map((own) => {
    const batches: T[][] = [];
    for (let i = 0; i < own.length; i += maxPerBatch) batches.push(own.slice(i, i + maxPerBatch));
    return batches;
  });
}
