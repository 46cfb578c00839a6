import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';

interface Tally {
  ok: number;
  failed: number;
}

/**
 * Calls to each source's URLs (docs/architecture.md, "Inbound webhooks" `statistics`): counted in memory and added to
 * `alert_sources` once a second, so a storm on one source costs no write per request and no
 * lock on its row. What a crash loses is at most the last second's counts.
 */
export class SourceCallStats {
  private byId = new Map<string, Tally>();
  private byHash = new Map<string, Tally>();
  private timer?: NodeJS.Timeout;
  private flushing = Promise.resolve();

  constructor(
    private readonly orm: MikroORM,
    private readonly intervalMs = 1000,
  ) {}

  /** A call to a source named by id (the Form B receiver). */
  countById(id: string, ok: boolean): void {
    add(this.byId, id, ok);
  }

  /** A call to a source named by its URL secret's hash (an ingestion URL); unknown hashes count nowhere. */
  countByHash(tokenHash: string, ok: boolean): void {
    add(this.byHash, tokenHash, ok);
  }

  start(): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), this.intervalMs);
    this.timer.unref();
  }

  /** Writes what was counted since the last flush; counts that fail to write are added back. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch(() => undefined);
  }

  private async write(): Promise<void> {
    const [byId, byHash] = [this.byId, this.byHash];
    if (byId.size === 0 && byHash.size === 0) return;
    this.byId = new Map();
    this.byHash = new Map();
    const rows = (m: Map<string, Tally>) => JSON.stringify([...m].map(([key, t]) => ({ key, ok: t.ok, failed: t.failed })));
    const sql = (column: string, type: string) => `
      update alert_sources a
         set total_calls = a.total_calls + v.ok + v.failed, successful_calls = a.successful_calls + v.ok, failed_calls = a.failed_calls + v.failed
        from json_to_recordset(?::json) as v(key ${type}, ok int, failed int)
       where a.${column} = v.key and a.status in ('ACTIVE', 'PAUSED')`;
    try {
      const knex = knexOf(this.orm);
      if (byId.size) await knex.raw(sql('id', 'uuid'), [rows(byId)]);
      if (byHash.size) await knex.raw(sql('token_hash', 'text'), [rows(byHash)]);
    } catch (err) {
      for (const [k, t] of byId) merge(this.byId, k, t);
      for (const [k, t] of byHash) merge(this.byHash, k, t);
      throw err;
    }
  }
}

function add(m: Map<string, Tally>, key: string, ok: boolean): void {
  const t = m.get(key) ?? { ok: 0, failed: 0 };
  if (ok) t.ok += 1;
  else t.failed += 1;
  m.set(key, t);
}

function merge(m: Map<string, Tally>, key: string, t: Tally): void {
  const cur = m.get(key) ?? { ok: 0, failed: 0 };
  m.set(key, { ok: cur.ok + t.ok, failed: cur.failed + t.failed });
}
