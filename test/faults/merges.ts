/**
 * The merger (issue 38): during the load, every few seconds, two open incidents of one service
 * are merged through the dashboard API as a person would (`POST /api/incidents/{target}/merge`,
 * signed in as the seeded merger), and a merge that did not answer 200 is asked again until it
 * does: a merge cut short is finished by asking again (docs/responding.md, "Merge"). The fault
 * "kill -9 the workers mid-merge" asks for one and kills both workers once its first step (the
 * merged incident's move and resolve) is written, before the target records it. Every merge is
 * kept for the accounting.
 */
import { Client as PgClient } from 'pg';
import type { MergeRecord } from './ledger';
import type { Child } from './processes';

export interface MergerOptions {
  /** Dashboard base URLs, one per API process. */
  appUrls: string[];
  databaseUrl: string;
  login: { email: string; password: string };
  random: () => number;
  /** Between two merges of the steady stream. */
  intervalMs: number;
  /** A merge not answered 200 after this long is given up (a failure of the run). */
  giveUpMs: number;
  say: (line: string) => void;
}

interface Pair {
  target: { id: string; number: number };
  merged: { id: string; number: number };
}

const SESSION_COOKIE = '__Host-klaxon_session';
const ATTEMPT_TIMEOUT_MS = 30_000;
const OPEN = `('TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING')`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new PgClient({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export class Merger {
  readonly merges: MergeRecord[] = [];
  private session?: { cookie: string; csrf: string };
  private nextApi = 0;
  /** The fault holds the steady stream while it runs its own merge. */
  private held = false;

  constructor(private readonly opts: MergerOptions) {}

  /** Merges every `intervalMs` until `done()` says so, one at a time, each until it is answered. */
  async run(done: () => boolean): Promise<void> {
    while (!done()) {
      await sleep(this.opts.intervalMs);
      if (this.held || done()) continue;
      const pair = await this.pick().catch(() => null); // Postgres down: the next tick tries again
      if (pair) await this.merge(pair);
    }
  }

  /**
   * The fault: a merge whose workers are killed -9 mid-way (once the merged incident's write is
   * in, before the target records it, when the timing allows), started again, and the merge asked
   * again until 200. Says where the kill fell.
   */
  async cutShort(workers: Child[]): Promise<void> {
    this.held = true;
    try {
      // A pair can be refused before anything moves (one of them resolved by its sender meanwhile): another is asked then.
      for (let tries = 1; ; tries++) {
        const pair = await this.pickSettled();
        let killing: Promise<void> | undefined;
        const record = await this.merge(pair, (asked, abandon) => {
          killing = this.killMidMerge(pair, asked, workers).then(abandon);
        });
        await killing;
        if (record.outcome === 'merged') return;
        if (record.outcome !== 'refused' || record.cut !== 'before its first step was written' || tries >= 5)
          throw new Error(`the merge cut short was not finished: ${record.outcome} (last: ${record.status ?? '-'} ${record.lastError ?? ''})`);
      }
    } finally {
      this.held = false;
    }
  }

  /**
   * Kills the workers -9 once the merged incident's move is written (or after 2 s at the latest),
   * and starts them again; then the first request is abandoned (as a person gives up on a spinner
   * and asks again), while the API may still be running it.
   */
  private async killMidMerge(pair: Pair, asked: MergeRecord, workers: Child[]): Promise<void> {
    const step1 = await this.waitForMergedAway(pair, 2000);
    await Promise.all(workers.map((w) => w.kill9()));
    const step2 = await this.targetRecorded(pair);
    asked.cut = step1 ? (step2 ? 'after both steps' : 'between its two steps') : 'before its first step was written';
    this.opts.say(`merge #${pair.merged.number} into #${pair.target.number}: workers killed -9 ${asked.cut}`);
    await Promise.all(workers.map((w) => w.start()));
  }

  /** For the fault: two open incidents still taking alerts (no sender's resolve on its way), so the merge is not refused. */
  private async pickSettled(): Promise<Pair> {
    for (let i = 0; ; i++) {
      const pair = await this.pick(true).catch((err: unknown) => {
        if (i >= 20) throw err;
        return null;
      });
      if (pair) return pair;
      if (i >= 20) throw new Error('no two open incidents of one service to merge');
      await sleep(500);
    }
  }

  /** Two open incidents of one service, picked at random (null when there are none). */
  private async pick(settled = false): Promise<Pair | null> {
    const rows = await query<{ id: string; number: number; service_id: string }>(
      this.opts.databaseUrl,
      `select id, number, service_id from incidents where status in ${OPEN}${settled ? ' and alerts_closed_at is null' : ''} order by created_at desc limit 200`,
    );
    const byService = new Map<string, typeof rows>();
    for (const r of rows) byService.set(r.service_id, [...(byService.get(r.service_id) ?? []), r]);
    const services = [...byService.values()].filter((g) => g.length >= 2);
    if (!services.length) return null;
    const group = services[Math.floor(this.opts.random() * services.length)];
    const a = Math.floor(this.opts.random() * group.length);
    let b = Math.floor(this.opts.random() * (group.length - 1));
    if (b >= a) b++;
    return { target: { id: group[a].id, number: group[a].number }, merged: { id: group[b].id, number: group[b].number } };
  }

  /** Asks until 200 (or a 4xx: one of them is no longer open), moving to the next API on no answer. */
  private async merge(pair: Pair, afterFirstSend?: (record: MergeRecord, abandon: () => void) => void): Promise<MergeRecord> {
    const record: MergeRecord = {
      n: this.merges.length + 1,
      targetId: pair.target.id,
      targetNumber: pair.target.number,
      mergedId: pair.merged.id,
      mergedNumber: pair.merged.number,
      startedAt: Date.now(),
      attempts: 0,
      outcome: 'pending',
    };
    this.merges.push(record);
    const giveUpAt = Date.now() + this.opts.giveUpMs;
    for (;;) {
      record.attempts++;
      const abandon = new AbortController();
      const asking = this.post(`/api/incidents/${pair.target.id}/merge`, { incident_ids: [pair.merged.id] }, abandon.signal);
      if (record.attempts === 1) afterFirstSend?.(record, () => abandon.abort());
      const answer = await asking;
      record.status = answer.status;
      if (answer.status === 200) {
        const data = (answer.json as { data?: { merged?: Array<{ id: string; alerts_moved: number }> } }).data;
        Object.assign(record, { outcome: 'merged', answeredAt: Date.now(), alertsMoved: data?.merged?.find((m) => m.id === pair.merged.id)?.alerts_moved });
        return record;
      }
      record.lastError = answer.error;
      if (answer.status === 401) this.session = undefined;
      else if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
        record.outcome = 'refused';
        return record;
      }
      if (Date.now() >= giveUpAt) {
        record.outcome = 'gave_up';
        this.opts.say(
          `merge #${pair.merged.number} into #${pair.target.number} given up after ${record.attempts} attempts (last: ${answer.status} ${answer.error ?? ''})`,
        );
        return record;
      }
      await sleep(Math.min(4000, 500 * 2 ** Math.min(record.attempts - 1, 3)) * (0.5 + this.opts.random() / 2));
    }
  }

  /** Watches for the merged incident's "merged into" resolve (step 1) on one connection, so the kill follows it within milliseconds. */
  private async waitForMergedAway(pair: Pair, timeoutMs: number): Promise<boolean> {
    const client = new PgClient({ connectionString: this.opts.databaseUrl, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const { rows } = await client.query(
          `select 1 from timeline_entries where incident_id = $1 and type = 'status_change' and to_status = 'RESOLVED' and message like $2`,
          [pair.merged.id, `%merged into #${pair.target.number} %`],
        );
        if (rows.length) return true;
        await sleep(2);
      }
      return false;
    } catch {
      return false; // Postgres away: kill anyway
    } finally {
      await client.end().catch(() => {});
    }
  }

  private async targetRecorded(pair: Pair): Promise<boolean> {
    const rows = await query<{ n: number }>(
      this.opts.databaseUrl,
      `select 1 as n from timeline_entries where incident_id = $1 and type = 'merged' and message like $2`,
      [pair.target.id, `Merged #${pair.merged.number} into%`],
    ).catch(() => []);
    return rows.length > 0;
  }

  /** One dashboard POST with the session (signed in first when there is none); status 0 when no answer came. */
  private async post(path: string, body: unknown, abandon?: AbortSignal): Promise<{ status: number; json?: unknown; error?: string }> {
    if (!this.session) {
      const login = await this.send('/api/auth/login', this.opts.login, {});
      if (login.status !== 200) return login;
      const cookie = login.cookies
        .find((c) => c.startsWith(`${SESSION_COOKIE}=`))
        ?.slice(SESSION_COOKIE.length + 1)
        .split(';')[0];
      const csrf = (login.json as { data?: { csrf_token?: string } }).data?.csrf_token;
      if (!cookie || !csrf) return { status: 0, error: 'the login set no session' };
      this.session = { cookie, csrf };
    }
    return this.send(path, body, { Cookie: `${SESSION_COOKIE}=${this.session.cookie}`, 'X-CSRF-Token': this.session.csrf }, abandon);
  }

  private async send(
    path: string,
    body: unknown,
    headers: Record<string, string>,
    abandon?: AbortSignal,
  ): Promise<{ status: number; json?: unknown; error?: string; cookies: string[] }> {
    const base = this.opts.appUrls[this.nextApi++ % this.opts.appUrls.length];
    try {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: abandon ? AbortSignal.any([abandon, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]) : AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const text = await res.text();
      const cookies = res.headers.getSetCookie();
      if (!res.ok) return { status: res.status, error: text.slice(0, 300), cookies };
      return { status: res.status, json: JSON.parse(text) as unknown, cookies };
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      return { status: 0, error: `${(err as Error).name}: ${cause ?? (err as Error).message}`, cookies: [] };
    }
  }
}
