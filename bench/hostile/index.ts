/**
 * Hostile payloads (issue 21): how long what the API does with a body before storing anything
 * (read the JSON, nesting checked first, then detect and normalise it; the SNS signature check
 * aside) takes on the adversarial corpus of test/support/hostile: every native sender, Form A
 * and Form B × every string field its parser reads × every shape, each body 512 KiB. In this
 * process and without the stack: parsing is synchronous, so this is how long one hostile body
 * holds the API's event loop. Each case runs three times; its median counts.
 */
import { parseJsonText } from '../../src/domain/ingest/json-text';
import { INGEST_LIMITS } from '../../src/domain/ingest/limits';
import { PLAN_SLICE, planIngestInSlices } from '../../src/domain/ingest/plan';
import { hostileCorpus, planBody } from '../../test/support/hostile/corpus';
import type { Findings } from '../harness/report';
import type { Say } from '../harness/stack';

const RUNS = 3;

/** One case's median parse time over RUNS runs, in ms. */
function medianParseMs(raw: string, target: Parameters<typeof planBody>[1]): number {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    planBody(raw, target);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
}

/**
 * The largest batch one body can carry: an Alertmanager group with as many alerts as fit in
 * 512 KiB. The API plans it a slice at a time (planIngestInSlices), serving other requests in
 * between: how long the longest slice holds the event loop (JSON read and normalising included,
 * they come before the first pause), and how long planning takes in all.
 */
function largestBatch(): { alerts: number; longestSliceMs: number; totalMs: number } {
  const envelope = {
    version: '4',
    groupKey: '{}:{}',
    status: 'firing',
    receiver: 'klaxon',
    groupLabels: {},
    commonLabels: {},
    commonAnnotations: {},
    externalURL: 'http://am',
  };
  const alert = (i: number) => ({ status: 'firing', labels: { alertname: `a${i}` }, annotations: {}, fingerprint: `f${i}` });
  const alerts = Math.floor((INGEST_LIMITS.bodyBytes - JSON.stringify({ ...envelope, alerts: [] }).length) / (JSON.stringify(alert(99_999)).length + 1));
  const raw = JSON.stringify({ ...envelope, alerts: Array.from({ length: alerts }, (_, i) => alert(i)) });
  const runs = Array.from({ length: RUNS }, () => {
    const slices: number[] = [];
    let started = performance.now();
    const parsed = parseJsonText(raw, { objectOrArray: true });
    const steps = planIngestInSlices(parsed.ok ? parsed.value : {}, {}, 'A');
    for (let step = steps.next(); ; step = steps.next()) {
      slices.push(performance.now() - started);
      if (step.done) break;
      started = performance.now();
    }
    return { longestSliceMs: Math.max(...slices), totalMs: slices.reduce((a, b) => a + b, 0) };
  }).sort((a, b) => a.longestSliceMs - b.longestSliceMs);
  return { alerts, ...runs[Math.floor(RUNS / 2)] };
}

/** The worst and the median parse time over the whole corpus. */
export async function benchHostile(say: Say): Promise<Findings> {
  const started = performance.now();
  const cases: Array<{ name: string; ms: number }> = [];
  const targets = new Set<string>();
  const shapes = new Set<string>();
  for (const c of hostileCorpus(INGEST_LIMITS.bodyBytes)) {
    cases.push({ name: c.name, ms: medianParseMs(c.raw, c.target) });
    targets.add(c.target.name);
    shapes.add(c.shape.name);
    if (cases.length % 500 === 0) {
      say(`hostile payloads: ${cases.length} cases parsed`);
      await new Promise((resolve) => setImmediate(resolve)); // let Ctrl-C in
    }
  }
  const sorted = [...cases].sort((a, b) => b.ms - a.ms);
  const worst = sorted[0];
  const median = sorted[Math.floor(sorted.length / 2)];
  const batch = largestBatch();
  const corpus = `${cases.length} cases: ${targets.size} bodies (13 native senders, Sentry's 3 resources and SNS's message counted apart, Form A, Form B) × the string fields each parser reads × ${shapes.size} shapes, ${INGEST_LIMITS.bodyBytes / 1024} KiB each`;
  return {
    figures: [],
    rates: [
      {
        key: 'hostile_parse_worst',
        label: 'hostile payloads: worst parse time',
        value: worst.ms,
        unit: 'ms',
        detail: `median of ${RUNS} runs of the slowest case (${worst.name}), over ${cases.length} cases`,
      },
      { key: 'hostile_parse_median', label: 'hostile payloads: median parse time', value: median.ms, unit: 'ms', detail: `the median case (${median.name})` },
      {
        key: 'hostile_batch_longest_slice',
        label: 'largest batch: longest planning slice',
        value: batch.longestSliceMs,
        unit: 'ms',
        detail: `512 KiB Alertmanager body of ${batch.alerts} alerts, planned in slices of ${PLAN_SLICE}: ${batch.totalMs.toFixed(0)} ms in all (median of ${RUNS} runs)`,
      },
    ],
    notes: [
      `Hostile payloads: ${corpus} (test/support/hostile). Timed in the bench process with no stack: JSON text read with its nesting checked (src/domain/ingest/json-text.ts), then planIngest; the SNS signature check (I/O) is not included. Slowest five: ${sorted
        .slice(0, 5)
        .map((c) => `${c.name} ${c.ms.toFixed(1)} ms`)
        .join('; ')}. Corpus built and run in ${Math.round((performance.now() - started) / 1000)} s.`,
    ],
  };
}
