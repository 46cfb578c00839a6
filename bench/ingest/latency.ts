import { cpuSnapshot } from '../harness/cpu';
import { accepted, statusesOf, valuesRun } from '../harness/load';
import { JSON_HEADERS, pacedLoad } from '../harness/measured-load';
import { perS } from '../harness/numbers';
import { waitFor } from '../harness/wait';
import { type IngestBench, INGEST_CONCURRENCY, REPLAYS_S, STEADY_INCIDENTS, STEADY_RATE, STEADY_S, closedLoad } from './bench';

/** (c) Replays of one Idempotency-Key with its first payload: answered from the stored record. */
export async function duplicateReplays(b: IngestBench): Promise<void> {
  const phase = 'duplicate replays';
  const src = await b.source('replays');
  const body = JSON.stringify({ title: `${b.prefix('replay')} replayed`, dedup_key: 'replayed' });
  const headers = { ...JSON_HEADERS, 'idempotency-key': 'bench-replay' };
  const first = await fetch(src.url, { method: 'POST', headers, body });
  if (first.status !== 202) throw new Error(`the first event of the replay phase answered ${first.status}: ${await first.text()}`);
  const start = await b.drain(phase);
  b.say(`Duplicate replays of one Idempotency-Key at ${INGEST_CONCURRENCY} connections for ${REPLAYS_S} s`);
  const { run, cpuAtStart: c0 } = await closedLoad(src, { kind: 'fixed', body }, REPLAYS_S, headers);
  const c1 = cpuSnapshot();
  const { alerts } = await b.probe.stored(src.sourceId, src.serviceId);
  b.out.figures.push({
    key: `ingest_duplicate_replay_c${INGEST_CONCURRENCY}_ms`,
    label: `ingest duplicate replay, c=${INGEST_CONCURRENCY}`,
    run,
    target: { p99: 5 },
  });
  b.out.rates.push({
    key: 'ingest_duplicate_replays_per_s',
    label: 'duplicate replays answered',
    value: perS(accepted(run), run.durationS * 1000),
    unit: 'answers/s',
    detail: `${accepted(run)} 2xx in ${run.durationS} s`,
  });
  b.phase(phase, { answered: accepted(run), statuses: run.statuses, alerts_stored: alerts });
  b.out.notes.push(
    `Duplicate replays (${start}): one event sent once (202), then the same body and Idempotency-Key, ${INGEST_CONCURRENCY} connections, closed loop, ${run.durationS} s; answers ${statusesOf(run)} (a replay answers 200); the source holds ${alerts} alert(s) afterwards (1 expected: replays store nothing).`,
  );
  b.cpu('duplicate replays', c0, c1, run.cpuMs);
}

/**
 * (d) 202 → applied: a steady, paced STEADY_RATE events/s attaching to STEADY_INCIDENTS open
 * incidents; each event's latency runs from its 202 to the workflow time of its timeline entry.
 */
export async function steadyApplied(b: IngestBench): Promise<void> {
  const phase = '202 → applied';
  const src = await b.source('steady');
  const prefix = b.prefix('steady');
  for (let k = 0; k < STEADY_INCIDENTS; k++) {
    const res = await fetch(src.url, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ title: `${prefix} opener ${k}`, dedup_key: `${prefix}-k${k}` }),
    });
    if (res.status !== 202) throw new Error(`opening a steady-phase incident answered ${res.status}: ${await res.text()}`);
  }
  const start = await b.drain(phase);
  b.say(`202 → applied at a steady ${STEADY_RATE} events/s for ${STEADY_S} s`);
  const { run, cpuAtStart: c0 } = await pacedLoad(
    src.url,
    { kind: 'alert', prefix, dedupKeys: STEADY_INCIDENTS },
    { rate: STEADY_RATE, durationS: STEADY_S, maxInFlight: 32 },
  );
  const answeredAt = new Map(run.answered.map(([title, at]) => [`Alert attached: ${title}`, at]));
  const matched = (entries: Map<string, number>) => [...answeredAt.keys()].filter((m) => entries.has(m)).length;
  const applied = await waitFor(
    () => b.probe.attachedEntries(src.serviceId),
    (entries) => matched(entries) >= answeredAt.size,
    matched,
  );
  const c1 = cpuSnapshot();
  // Where the time goes: 202 → the relay's delivered_at → the workflow's entry. Clamped at 0: the
  // 202 is timed when the load generator has read it, and delivered_at is stamped once per relay
  // batch, after the batch's calls, so either can come after the next step already happened.
  const deliveredAt = await b.probe.deliveredAtByTitle(src.sourceId);
  const latencies: number[] = [];
  const toDelivered: number[] = [];
  const deliveredToApplied: number[] = [];
  for (const [title, at] of run.answered) {
    const entryAt = applied.value.get(`Alert attached: ${title}`);
    if (entryAt === undefined) continue;
    latencies.push(Math.max(0, entryAt - at));
    const delivered = deliveredAt.get(title) ?? NaN;
    if (Number.isNaN(delivered)) continue;
    toDelivered.push(Math.max(0, delivered - at));
    deliveredToApplied.push(Math.max(0, entryAt - delivered));
  }
  const missing = answeredAt.size - latencies.length;
  b.out.figures.push(
    { key: 'ingest_first_time_steady_ms', label: `ingest first-time event, steady ${STEADY_RATE}/s`, run },
    {
      key: 'ingest_202_to_applied_ms',
      label: `202 → applied in workflow, ${STEADY_RATE}/s`,
      run: valuesRun(latencies, run, { not_applied: missing }),
      target: { p99: 1000 },
    },
    { key: 'ingest_202_to_delivered_ms', label: `  of which 202 → relay delivered, ${STEADY_RATE}/s`, run: valuesRun(toDelivered, run) },
    { key: 'ingest_delivered_to_applied_ms', label: `  of which delivered → applied, ${STEADY_RATE}/s`, run: valuesRun(deliveredToApplied, run) },
  );
  b.phase(phase, {
    sent: Math.round(STEADY_RATE * STEADY_S),
    answered_2xx: answeredAt.size,
    statuses: run.statuses,
    applied: latencies.length,
    applied_complete: applied.complete,
  });
  b.out.notes.push(
    `202 → applied (${start}): ${STEADY_INCIDENTS} incidents opened first, then ${Math.round(STEADY_RATE * STEADY_S)} events paced one every ${1000 / STEADY_RATE} ms (open loop, not autocannon's per-second bursts), attaching to them in turn (${STEADY_RATE / STEADY_INCIDENTS} events/s per incident); answers ${statusesOf(run)}. ` +
      `Per event: the workflow time of its \`alert_attached\` entry (matched by its unique title) minus the wall-clock time the load generator read its 202; same machine, same clock. ${missing ? `${missing} accepted events were never applied within the wait.` : 'Every accepted event was applied.'} ` +
      "Split at the outbox row's delivered_at (the relay's signalWithStart returned): 202 → delivered is the relay's queue and call, delivered → applied the worker's (both clamped at 0; the relay stamps delivered_at when it records the delivery, which may be a little after its call returned).",
  );
  b.cpu(`steady ${STEADY_RATE}/s: load and apply`, c0, c1, run.cpuMs);
}
