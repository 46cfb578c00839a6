/**
 * Group commit: callers submit one item each and wait; items are written in batches, one batch
 * at a time. While a batch is in flight the next one gathers, so under load each transaction
 * (and its WAL flush) carries many items, and when idle an item is written at once. DataLoader
 * batches per tick instead, which under load means many small transactions in flight at once,
 * all queueing on the same locks.
 */
export class GroupCommit<I, O> {
  private queue: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  private inFlight = 0;

  constructor(
    /** Writes a batch; returns one outcome per item, in order. */
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly opts: { maxBatch: number; maxInFlight?: number; onCommitted?: (items: I[], outcomes: O[]) => void } = { maxBatch: 256 },
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.flush();
    });
  }

  /** Items waiting for a batch, and batches being written. */
  get pending(): { queued: number; inFlight: number } {
    return { queued: this.queue.length, inFlight: this.inFlight };
  }

  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < (this.opts.maxInFlight ?? 1)) {
      const batch = this.queue.splice(0, this.opts.maxBatch);
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.flush();
      });
    }
  }

  private async run(batch: GroupCommit<I, O>['queue']): Promise<void> {
    const items = batch.map((b) => b.item);
    try {
      const outcomes = await this.write(items);
      batch.forEach((b, i) => b.resolve(outcomes[i]));
      this.opts.onCommitted?.(items, outcomes);
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
  }
}
