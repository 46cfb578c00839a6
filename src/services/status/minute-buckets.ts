import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { BUCKET_BOUNDS_MS, emptyBuckets, mergeInto, observe, storedBounds, type Bounds, type Buckets } from './histogram';

const MINUTE_MS = 60_000;

/** A series' labels: string values only, each stored in a column of the same name. */
export type SeriesLabels = Record<string, string>;

/** One series' durations counted in one minute (epoch ms, seconds zero). */
export type MinuteEntry<S extends SeriesLabels> = S & { minute: number; buckets: Buckets };

/**
 * One process's durations per series (a surface, a metric and its labels) and minute, kept until
 * a flush takes them. Counts are added in the database, so any number of processes (and flushes)
 * sum up. The HTTP request durations (./request-metrics.ts) and the published latencies
 * (./latency-metrics.ts) are two of them, over two bucket layouts.
 */
export class MinuteRecorder<S extends SeriesLabels> {
  private pending = new Map<string, MinuteEntry<S>>();

  constructor(readonly bounds: Bounds = BUCKET_BOUNDS_MS) {}

  /** Counts one duration of a series that ended at `at` (epoch ms). */
  count(series: S, durationMs: number, at = Date.now()): void {
    const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
    const key = keyOf(series, minute);
    let entry = this.pending.get(key);
    if (!entry) this.pending.set(key, (entry = { ...series, minute, buckets: emptyBuckets(this.bounds) }));
    observe(entry.buckets, durationMs, this.bounds);
  }

  /** Takes everything counted so far (synchronously: concurrent flushes never count twice). */
  drain(): Array<MinuteEntry<S>> {
    const taken = [...this.pending.values()];
    this.pending = new Map();
    return taken;
  }

  /** Puts back what a failed flush took, to go with the next one. */
  restore(entries: Array<MinuteEntry<S>>): void {
    for (const e of entries) {
      const { minute, buckets: _buckets, ...series } = e;
      const key = keyOf(series as unknown as S, minute);
      const entry = this.pending.get(key);
      if (entry) mergeInto(entry.buckets, e.buckets);
      else this.pending.set(key, e);
    }
  }
}

// Label names sorted: the same series whatever order its object was written in.
const keyOf = (series: SeriesLabels, minute: number) =>
  JSON.stringify([
    minute,
    ...Object.keys(series)
      .sort()
      .map((k) => [k, series[k]]),
  ]);

/** Where a recorder's minutes are stored: a table keyed by its label columns, `minute` and `le_ms`, with `count` and `sum_ms`. */
export interface MinuteTable<S extends SeriesLabels> {
  name: string;
  labels: ReadonlyArray<keyof S & string>;
}

/**
 * Writes what a recorder holds, adding to the rows other processes wrote for the same minute,
 * and to each series' running totals when `totals` names their table (keyed by the label
 * columns and `le_ms`: what /metrics shows, never purged), in one transaction so both move together.
 * Returns the durations written; on failure the counts go back to the recorder.
 */
export async function flushMinutes<S extends SeriesLabels>(
  orm: MikroORM,
  recorder: MinuteRecorder<S>,
  table: MinuteTable<S>,
  totals?: string,
): Promise<number> {
  const entries = recorder.drain();
  const bounds = storedBounds(recorder.bounds);
  const rows = entries.flatMap((e) =>
    bounds
      .map((le, i) => ({
        ...Object.fromEntries(table.labels.map((l) => [l, e[l]])),
        minute: new Date(e.minute),
        le_ms: le,
        count: e.buckets.counts[i],
        sum_ms: e.buckets.sumsMs[i],
      }))
      .filter((r) => r.count > 0),
  );
  if (rows.length === 0) return 0;
  const k = knexOf(orm);
  const sortKey = (r: Record<string, unknown>) => JSON.stringify([...table.labels.map((l) => r[l]), (r.minute as Date).getTime(), r.le_ms]);
  // Sorted: two processes upserting the same rows take their locks in the same order.
  rows.sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
  const add = (name: string) => ({ count: k.raw(`${name}.count + excluded.count`), sum_ms: k.raw(`${name}.sum_ms + excluded.sum_ms`) });
  try {
    const minutes = k(table.name)
      .insert(rows)
      .onConflict([...table.labels, 'minute', 'le_ms'])
      .merge(add(table.name));
    if (totals === undefined) await minutes;
    else {
      const summed = new Map<string, Record<string, unknown> & { count: number; sum_ms: number }>();
      for (const { minute: _minute, ...r } of rows) {
        const key = JSON.stringify([...table.labels.map((l) => r[l as keyof typeof r]), r.le_ms]);
        const had = summed.get(key);
        if (had) {
          had.count += r.count;
          had.sum_ms += r.sum_ms;
        } else summed.set(key, { ...r });
      }
      // Sorted too: the minutes' order does not sort the totals (a minute may lack a bucket another has).
      const totalRows = [...summed.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, r]) => r);
      const total = k(totals)
        .insert(totalRows)
        .onConflict([...table.labels, 'le_ms'])
        .merge(add(totals));
      await k.transaction(async (trx) => {
        await minutes.transacting(trx);
        await total.transacting(trx);
      });
    }
    return rows.reduce((n, r) => n + r.count, 0);
  } catch (err) {
    recorder.restore(entries);
    throw err;
  }
}

/** Flushes a recorder every `everyMs` (10 s), and once more on stop. */
export class MinutesFlusher {
  private timer?: NodeJS.Timeout;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly write: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(everyMs = 10_000): void {
    this.timer = setInterval(() => void this.flush(), everyMs);
    this.timer.unref();
  }

  /** One flush after the previous one finished; errors go to `onError` (the counts are kept). */
  flush(): Promise<unknown> {
    this.running = this.running.then(() => this.write().catch(this.onError));
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
