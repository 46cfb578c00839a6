import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import type { IngestItem } from '../../domain/ingest/plan';
import type { Plan } from '../../domain/plans';
import { isDatabaseUnavailable } from '../../db/knex';
import { chargeAlerts, type QuotaRefusal, type UsageNotice } from '../plans/alert-quota';
import { groupingOf } from '../../domain/grouping/match';
import type { GroupingRule } from '../../domain/grouping/rules';
import { effectiveStorm, type StormSetting } from '../../domain/grouping/storm';
import { groupLookup, lockDedupKeys, storeResolve, storeTriggers, stormLock, type SourceRef, type TriggerRow } from './routing';
import { storeAcknowledge } from './acknowledge';

/** One accepted-looking request, parsed and validated, waiting for its transaction. */
export interface AcceptRequest {
  /** SHA-256 of the URL secret: the source is looked up inside the batch's transaction. */
  tokenHash: string;
  items: IngestItem[];
  idempotency?: { key: string; fingerprint: string };
}

export interface AcceptedEvent {
  event_id: string;
  incident_id: string | null;
  action: IngestItem['action'];
}

/** What became of a request once its batch committed (or failed). */
export type AcceptOutcome =
  | { kind: 'accepted'; events: AcceptedEvent[]; /** It opened, resolved or acknowledged an incident: deliver without waiting. */ urgent: boolean }
  | { kind: 'duplicate'; event_id: string | null; incident_id: string | null }
  | { kind: 'unknown_source' }
  | { kind: 'paused' }
  | { kind: 'conflict' }
  /** Its workspace stored its plan's alerts for the month: nothing of it was stored. */
  | { kind: 'over_quota'; refusal: QuotaRefusal }
  | { kind: 'failed'; error: unknown };

/** A written batch: one outcome per request, and the usage emails it made due (sent after commit). */
interface BatchResult {
  outcomes: AcceptOutcome[];
  notices: UsageNotice[];
}

/** Triggering alerts stored per statement group (storeTriggers); a batch payload's run is stored in slices of this. */
export const STORE_SLICE = 500;

/** event_id / incident_id of an idempotency record whose request named none. */
export const NIL = '00000000-0000-0000-0000-000000000000';
export const nullIfNil = (id: string | null): string | null => (id === NIL ? null : id);

/**
 * Commits a batch of requests in one transaction: each one's alerts, idempotency record, routing
 * and outbox messages, so a 2xx is only ever answered for what is durably stored. When a batch
 * fails for a reason other than Postgres being away, each request is retried on its own, so one
 * bad request cannot fail its neighbours.
 */
export async function commitBatch(
  knex: Knex,
  requests: AcceptRequest[],
  opts: {
    idempotencyTtlMs: number;
    /** Usage emails a committed batch made due (marked sent in it). */ onUsageReached?: (notices: UsageNotice[]) => void;
    /** The storm guard of sources that follow the default (STORM_GUARD); null: off. */
    stormDefault?: StormSetting | null;
  },
): Promise<AcceptOutcome[]> {
  const committed = (result: BatchResult) => {
    if (result.notices.length) opts.onUsageReached?.(result.notices);
    return result.outcomes;
  };
  try {
    return committed(await knex.transaction((trx) => writeBatch(trx, requests, opts.idempotencyTtlMs, opts.stormDefault ?? null)));
  } catch (err) {
    if (requests.length === 1 || isDatabaseUnavailable(err)) throw err;
    const alone: AcceptOutcome[] = [];
    for (const request of requests) {
      alone.push(
        await knex
          .transaction((trx) => writeBatch(trx, [request], opts.idempotencyTtlMs, opts.stormDefault ?? null))
          .then(
            (r) => committed(r)[0],
            (error: unknown) => ({ kind: 'failed', error }) as const,
          ),
      );
    }
    return alone;
  }
}

async function writeBatch(trx: Knex.Transaction, requests: AcceptRequest[], ttlMs: number, stormDefault: StormSetting | null): Promise<BatchResult> {
  const now = new Date();
  const sources = await sourcesByHash(
    trx,
    requests.map((r) => r.tokenHash),
    stormDefault,
  );
  const outcomes: Array<AcceptOutcome | undefined> = requests.map((r) => {
    const source = sources.get(r.tokenHash);
    if (!source) return { kind: 'unknown_source' };
    return source.paused ? { kind: 'paused' } : undefined;
  });
  const eventIds = requests.map((r) => r.items.map(() => randomUUID()));
  const claims = await claimKeys(trx, requests, sources, eventIds, outcomes, now, ttlMs);

  // The plan's monthly alert quota (FREE) counts the alerts a request newly stores: its triggers,
  // once replays and conflicts are answered. A refused request stores nothing at all.
  const { refused, notices } = await chargeAlerts(
    trx,
    requests.map((request, r) => {
      if (outcomes[r]) return null;
      const source = sources.get(request.tokenHash)!;
      return { organizationId: source.organizationId, plan: source.plan, alerts: request.items.filter((item) => item.action === 'trigger').length };
    }),
    now,
  );
  refused.forEach((refusal, r) => {
    if (refusal) outcomes[r] = { kind: 'over_quota', refusal };
  });

  // Grouping (docs/grouping.md): each trigger's rule and group key, under its service's rules.
  const groupingAt = requests.map((request, r) =>
    request.items.map((item) => {
      const serviceRules = outcomes[r] || item.action !== 'trigger' ? undefined : sources.get(request.tokenHash)!.groupingRules;
      return serviceRules ? groupingOf(serviceRules, item) : null;
    }),
  );
  // Every key the batch routes on, triggers and resolves alike, its groups and its guarded
  // sources' storm guards, locked once in one order.
  const noiseLocks = new Set<string>();
  requests.forEach((request, r) => {
    if (outcomes[r]) return;
    const source = sources.get(request.tokenHash)!;
    if (source.storm && request.items.some((item) => item.action === 'trigger')) noiseLocks.add(stormLock(source.id));
    for (const g of groupingAt[r]) if (g) noiseLocks.add(groupLookup(source.serviceId, g));
  });
  await lockDedupKeys(
    trx,
    requests.flatMap((request, r) =>
      outcomes[r] ? [] : request.items.map((item) => ({ serviceId: sources.get(request.tokenHash)!.serviceId, dedupKey: item.dedupKey })),
    ),
    [...noiseLocks],
  );

  // Alerts in request order; a resolve (or a sender's acknowledge) ends a run of triggers, so
  // "firing, then resolved" in one batch resolves what fired.
  const incidentOf = requests.map((r) => r.items.map((): string | null => null));
  const urgent = requests.map(() => false);
  let run: Array<{ row: TriggerRow; at: [number, number] }> = [];
  const flushRun = async () => {
    // In slices: building and sending the statements of thousands of alerts at once held the
    // event loop for a quarter of a second. A slice sees the incidents earlier ones opened (same
    // transaction), so routing is as if the run were stored whole.
    for (let from = 0; from < run.length; from += STORE_SLICE) {
      const slice = run.slice(from, from + STORE_SLICE);
      const stored = await storeTriggers(
        trx,
        slice.map((t) => t.row),
        now,
      );
      slice.forEach((t, i) => {
        incidentOf[t.at[0]][t.at[1]] = stored[i].incidentId;
        urgent[t.at[0]] ||= stored[i].opened;
      });
    }
    run = [];
  };
  for (const [r, request] of requests.entries()) {
    if (outcomes[r]) continue;
    const source = sources.get(request.tokenHash)!;
    for (const [i, item] of request.items.entries()) {
      if (item.action === 'trigger') {
        run.push({ row: { source, item, eventId: eventIds[r][i], grouping: groupingAt[r][i] }, at: [r, i] });
        continue;
      }
      await flushRun();
      const store = item.action === 'resolve' ? storeResolve : storeAcknowledge;
      incidentOf[r][i] = await store(trx, source, item, eventIds[r][i], now);
      urgent[r] ||= incidentOf[r][i] !== null;
    }
  }
  await flushRun();

  for (const [r, request] of requests.entries()) {
    if (outcomes[r]) continue;
    outcomes[r] = {
      kind: 'accepted',
      events: request.items.map((item, i) => ({ event_id: eventIds[r][i], incident_id: incidentOf[r][i], action: item.action })),
      urgent: urgent[r],
    };
  }
  await finishClaims(trx, requests, claims, outcomes);
  return { outcomes: outcomes as AcceptOutcome[], notices };
}

/** The batch's sources by token hash; a PAUSED one (docs/architecture.md, "Inbound webhooks") takes nothing. */
async function sourcesByHash(
  trx: Knex.Transaction,
  hashes: string[],
  stormDefault: StormSetting | null,
): Promise<Map<string, SourceRef & { paused: boolean; plan: Plan; groupingRules?: GroupingRule[] }>> {
  const rows: Array<{
    id: string;
    organization_id: string;
    service_id: string;
    team_id: string;
    token_hash: string;
    status: string;
    plan: Plan;
    name: string;
    storm_mode: string;
    storm: StormSetting | null;
    grouping_rules: GroupingRule[] | null;
  }> = await trx('alert_sources as a')
    .join('services as s', 's.id', 'a.service_id')
    .join('organizations as o', 'o.id', 'a.organization_id')
    // The service's grouping rules come in the same read (docs/grouping.md): no second round trip per batch.
    .leftJoin('service_grouping as g', 'g.service_id', 'a.service_id')
    .select(
      'a.id',
      'a.organization_id',
      'a.service_id',
      's.team_id',
      'a.token_hash',
      'a.status',
      'o.plan',
      'a.name',
      'a.storm_mode',
      'a.storm',
      'g.rules as grouping_rules',
    )
    .whereIn('a.token_hash', [...new Set(hashes)])
    .whereIn('a.status', ['ACTIVE', 'PAUSED']);
  return new Map(
    rows.map((s) => [
      s.token_hash,
      {
        id: s.id,
        organizationId: s.organization_id,
        serviceId: s.service_id,
        teamId: s.team_id,
        paused: s.status === 'PAUSED',
        plan: s.plan,
        name: s.name,
        storm: effectiveStorm(s.storm_mode, s.storm, stormDefault),
        ...(s.grouping_rules?.length ? { groupingRules: s.grouping_rules } : {}),
      },
    ]),
  );
}

/** A key this batch claimed: the request that took it, and the requests of the batch that share it. */
interface Claim {
  sourceId: string;
  key: string;
  owner: number;
  followers: number[];
}

/**
 * Takes each Idempotency-Key for the first request of the batch that carries it. A key another
 * transaction holds makes this one wait on the primary key until that commits; a key already
 * stored answers its request (duplicate or conflict), and so do the batch's later requests with
 * the same key, once the owner's answer is known.
 */
async function claimKeys(
  trx: Knex.Transaction,
  requests: AcceptRequest[],
  sources: Map<string, SourceRef>,
  eventIds: string[][],
  outcomes: Array<AcceptOutcome | undefined>,
  now: Date,
  ttlMs: number,
): Promise<Claim[]> {
  const claims = new Map<string, Claim>();
  requests.forEach((request, r) => {
    if (!request.idempotency || outcomes[r]) return;
    const sourceId = sources.get(request.tokenHash)!.id;
    const id = `${sourceId}\u0000${request.idempotency.key}`;
    const claim = claims.get(id);
    if (claim) claim.followers.push(r);
    else claims.set(id, { sourceId, key: request.idempotency.key, owner: r, followers: [] });
  });
  if (claims.size === 0) return [];
  // One order for every batch's claims, so two batches waiting on each other's keys cannot deadlock.
  const sorted = [...claims.values()].sort((a, b) => (a.sourceId === b.sourceId ? (a.key < b.key ? -1 : 1) : a.sourceId < b.sourceId ? -1 : 1));
  const keys = JSON.stringify(sorted.map((c) => ({ s: c.sourceId, k: c.key })));
  await trx.raw(
    `delete from idempotency_records r using json_to_recordset(?::json) as v(s uuid, k text) where r.source_id = v.s and r.key = v.k and r.expires_at <= ?`,
    [keys, now],
  );
  const rows = sorted.map((c) => ({
    s: c.sourceId,
    k: c.key,
    f: requests[c.owner].idempotency!.fingerprint,
    e: eventIds[c.owner][0] ?? NIL,
  }));
  const { rows: taken } = (await trx.raw(
    `insert into idempotency_records (source_id, key, fingerprint, event_id, incident_id, created_at, expires_at)
     select s, k, f, e, ?, ?, ? from json_to_recordset(?::json) as v(s uuid, k text, f text, e uuid)
     on conflict (source_id, key) do nothing returning source_id, key`,
    [NIL, now, new Date(now.getTime() + ttlMs), JSON.stringify(rows)],
  )) as { rows: Array<{ source_id: string; key: string }> };
  const won = new Set(taken.map((t) => `${t.source_id}\u0000${t.key}`));
  const lost = [...claims].filter(([id]) => !won.has(id)).map(([, c]) => c);
  if (lost.length) {
    const { rows: stored } = (await trx.raw(
      `select source_id, key, fingerprint, event_id, incident_id from idempotency_records r
       where (source_id, key) in (select s, k from json_to_recordset(?::json) as v(s uuid, k text))`,
      [JSON.stringify(lost.map((c) => ({ s: c.sourceId, k: c.key })))],
    )) as { rows: Array<{ source_id: string; key: string; fingerprint: string; event_id: string; incident_id: string }> };
    const byId = new Map(stored.map((s) => [`${s.source_id}\u0000${s.key}`, s]));
    for (const c of lost) {
      const first = byId.get(`${c.sourceId}\u0000${c.key}`)!;
      for (const r of [c.owner, ...c.followers]) {
        outcomes[r] =
          requests[r].idempotency!.fingerprint === first.fingerprint
            ? { kind: 'duplicate', event_id: nullIfNil(first.event_id), incident_id: nullIfNil(first.incident_id) }
            : { kind: 'conflict' };
      }
    }
  }
  const mine = [...claims].filter(([id]) => won.has(id)).map(([, c]) => c);
  // Later requests of this batch with a key it took replay the owner's answer (or conflict).
  for (const c of mine) for (const r of c.followers) outcomes[r] = { kind: 'duplicate', event_id: null, incident_id: null };
  return mine;
}

/**
 * Stores each claimed key's incident (known only after routing) and answers its followers. A key
 * whose request the quota refused is given back: a 429 leaves no idempotency record, so the same
 * request is taken once the quota allows.
 */
async function finishClaims(trx: Knex.Transaction, requests: AcceptRequest[], claims: Claim[], outcomes: Array<AcceptOutcome | undefined>): Promise<void> {
  const updates: Array<{ s: string; k: string; i: string }> = [];
  const released: Array<{ s: string; k: string }> = [];
  for (const c of claims) {
    const fingerprint = requests[c.owner].idempotency!.fingerprint;
    const answered = outcomes[c.owner]!;
    if (answered.kind === 'over_quota') {
      released.push({ s: c.sourceId, k: c.key });
      for (const r of c.followers) outcomes[r] = requests[r].idempotency!.fingerprint === fingerprint ? answered : { kind: 'conflict' };
      continue;
    }
    const owner = outcomes[c.owner] as Extract<AcceptOutcome, { kind: 'accepted' }>;
    const first = owner.events[0];
    if (first?.incident_id) updates.push({ s: c.sourceId, k: c.key, i: first.incident_id });
    for (const r of c.followers) {
      outcomes[r] =
        requests[r].idempotency!.fingerprint === fingerprint
          ? { kind: 'duplicate', event_id: first?.event_id ?? null, incident_id: first?.incident_id ?? null }
          : { kind: 'conflict' };
    }
  }
  if (updates.length) {
    await trx.raw(
      `update idempotency_records r set incident_id = v.i from json_to_recordset(?::json) as v(s uuid, k text, i uuid) where r.source_id = v.s and r.key = v.k`,
      [JSON.stringify(updates)],
    );
  }
  if (released.length) {
    await trx.raw(`delete from idempotency_records r using json_to_recordset(?::json) as v(s uuid, k text) where r.source_id = v.s and r.key = v.k`, [
      JSON.stringify(released),
    ]);
  }
}
