import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { summarise, type RunResult, type Summary } from './load';

/** Latency bounds in ms: a target to meet, or a reference figure to compare with. */
export interface Bounds {
  p50?: number;
  p99?: number;
}

export interface Figure {
  key: string;
  label: string;
  run: RunResult & { wrongStatus?: number };
  target?: Bounds;
  reference?: Bounds;
}

const met = (s: Summary, t: Bounds) => (t.p50 === undefined || s.p50 <= t.p50) && (t.p99 === undefined || s.p99 <= t.p99);

const describe = (t: Bounds) => [t.p50 !== undefined ? `p50 ≤ ${t.p50}` : '', t.p99 !== undefined ? `p99 ≤ ${t.p99}` : ''].filter(Boolean).join(', ');

/** The results.json entry of one figure. */
function entry(f: Figure, s: Summary) {
  return {
    ...s,
    ...(f.target && { target_p50: f.target.p50 ?? null, target_p99: f.target.p99 ?? null, met: met(s, f.target) }),
    ...(f.reference && { reference_p50: f.reference.p50 ?? null, reference_p99: f.reference.p99 ?? null }),
    failures: f.run.failures,
    ...(f.run.wrongStatus !== undefined && { wrong_status: f.run.wrongStatus }),
    ...(f.run.samples.length > 0 && { failure_samples: f.run.samples }),
  };
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** Prints the figures beside their targets and writes bench/results.json. */
export function report(figures: Figure[], notes: string[], loadAtStart: number): string {
  const rows = [['figure', 'p50 ms', 'p99 ms', 'target / reference (ms)', 'met?', 'requests', 'errors', 'req/s']];
  const json: Record<string, unknown> = {};
  for (const f of figures) {
    const s = summarise(f.run);
    json[f.key] = entry(f, s);
    const bound = f.target ? describe(f.target) : f.reference ? `ref: ${f.reference.p50} / ${f.reference.p99}` : '—';
    const verdict = f.target ? (met(s, f.target) ? 'yes' : 'NO') : '—';
    rows.push([f.label, s.p50.toFixed(1), s.p99.toFixed(1), bound, verdict, String(s.requests), String(s.errors), s.rps.toFixed(0)]);
  }
  const results = {
    generated_at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model ?? null, memory_gb: Math.round(os.totalmem() / 2 ** 30), node: process.version, load_avg_1m_at_start: loadAtStart },
    figures: json,
    notes,
  };
  const file = path.join(__dirname, 'results.json');
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  return `${table(rows)}\n\n${notes.map((n) => `* ${n}`).join('\n')}\n\nWrote ${path.relative(process.cwd(), file)}`;
}
