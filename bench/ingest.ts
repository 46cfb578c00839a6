import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../src/services/db';
import { createService } from '../src/services/catalog';
import { createSource } from '../src/services/sources';
import { cannon, type RunResult } from './load';
import type { BenchWorkspace } from './seed';

/** Distinct dedup keys the load spreads over: events attach to a few open incidents. */
const KEYS = 50;

/** A service and source of its own, so ingestion figures do not mix with the lifecycle ones. */
export async function ingestSource(orm: MikroORM, ws: BenchWorkspace, ingestUrl: string): Promise<string> {
  const service = await createService(orm, { organizationId: ws.organizationId, teamId: ws.teamId, name: 'bench ingestion' });
  return (await createSource(orm, { organizationId: ws.organizationId, serviceId: service.id, name: 'bench', ingestBaseUrl: ingestUrl })).ingest_url;
}

const json = { 'content-type': 'application/json' };

/** First-time events (no Idempotency-Key) at fixed concurrency: acceptance is a Postgres commit. */
export function benchFirstTimeEvents(url: string, concurrency: number, durationS: number): Promise<RunResult> {
  let n = 0;
  return cannon({
    url,
    method: 'POST',
    connections: concurrency,
    duration: durationS,
    headers: json,
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ title: `load ${++n}`, severity: 'warning', dedup_key: `key-${n % KEYS}` }) }) }],
  });
}

/** Replays of one Idempotency-Key with its first payload: answered from the idempotency record. */
export async function benchDuplicateReplays(url: string, concurrency: number, durationS: number): Promise<RunResult> {
  const body = JSON.stringify({ title: 'replayed', dedup_key: 'replayed' });
  const headers = { ...json, 'idempotency-key': 'bench-replay' };
  await fetch(url, { method: 'POST', headers, body });
  return cannon({ url, method: 'POST', connections: concurrency, duration: durationS, headers, body });
}

/**
 * 202 → applied: a steady `rate` of events that attach to open incidents; each one's timeline
 * entry is written by the workflow when it applies the event, in workflow time.
 */
export async function bench202ToApplied(orm: MikroORM, url: string, rate: number, durationS: number): Promise<{ latencies: number[]; sent: number; missing: number }> {
  const run = `steady-${Date.now()}`;
  for (let k = 0; k < 10; k++) await fetch(url, { method: 'POST', headers: json, body: JSON.stringify({ title: `${run} opener ${k}`, dedup_key: `${run}-${k}` }) });
  const acceptedAt = new Map<string, number>();
  let n = 0;
  await cannon({
    url,
    method: 'POST',
    connections: 10,
    duration: durationS,
    overallRate: rate,
    headers: json,
    requests: [
      {
        setupRequest: (req) => {
          const i = ++n;
          return { ...req, body: JSON.stringify({ title: `${run} e${i}`, dedup_key: `${run}-${i % 10}` }) };
        },
        onResponse: (status, body) => {
          if (status === 202) acceptedAt.set(`Alert attached: ${(JSON.parse(body) as { event_id: string }).event_id}`, Date.now());
        },
      },
    ],
  });
  // Titles are unique per event: match each accepted event to its timeline entry by title.
  const titleOf = new Map<string, number>();
  const alerts = await knexOf(orm)('alerts').select('id', 'title').where('title', 'like', `${run} e%`);
  for (const a of alerts) {
    const at = acceptedAt.get(`Alert attached: ${a.id}`);
    if (at !== undefined) titleOf.set(`Alert attached: ${a.title}`, at);
  }
  const deadline = Date.now() + 30_000;
  let entries: Array<{ message: string; created_at: Date | string }> = [];
  while (Date.now() < deadline) {
    entries = await knexOf(orm)('timeline_entries').select('message', 'created_at').whereIn('message', [...titleOf.keys()]);
    if (entries.length >= titleOf.size) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const latencies = entries.map((e) => Math.max(0, new Date(e.created_at).getTime() - titleOf.get(e.message)!));
  return { latencies, sent: titleOf.size, missing: titleOf.size - entries.length };
}
