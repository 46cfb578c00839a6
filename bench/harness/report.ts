import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CpuSplit } from './cpu';
import { summarise, type RunResult, type Summary } from './load';
import { round } from './numbers';

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

/** A rate or ratio (events/s, ×, s), beside its target when it has one. */
export interface Rate {
  key: string;
  label: string;
  /** NaN when it could not be measured (the detail says why). */
  value: number;
  unit: string;
  target?: { min?: number; max?: number };
  /** What was counted over what time, in a few words. */
  detail: string;
}

/** Everything one bench run found. */
export interface Findings {
  figures: Figure[];
  rates: Rate[];
  notes: string[];
  /** Who used the CPU during each measured stretch. */
  cpu?: Array<{ label: string; split: CpuSplit }>;
  /** Extra machine-readable detail (drain times, CPU split per phase) for results.json. */
  phases?: Record<string, unknown>;
  /** CPU ms per unit of work (a new paging incident) by component, and what its workflow history held: one column each. */
  perUnit?: UnitCpu[];
  /** CPU by component in cores (CPU-seconds per second) over a stretch: one column each. */
  componentCores?: Array<{ key: string; label: string; cores: Array<[string, number]> }>;
}

/** One column of the CPU-per-incident table. */
export interface UnitCpu {
  key: string;
  /** The column's heading (the phase). */
  label: string;
  /** What one unit is, for the table's title (e.g. "new paging incident (ingest → first SMS)"). */
  unit: string;
  units: number;
  /** Component → CPU ms per unit, total last. */
  ms: Array<[string, number]>;
  /** Per-unit counts from the workflow histories (events, workflow tasks, …). */
  counts?: Array<[string, number]>;
}

const rateMet = (r: Rate) =>
  !Number.isNaN(r.value) && (r.target?.min === undefined || r.value >= r.target.min) && (r.target?.max === undefined || r.value <= r.target.max);

const describeRate = (r: Rate) =>
  [r.target?.min !== undefined ? `≥ ${r.target.min}` : '', r.target?.max !== undefined ? `≤ ${r.target.max}` : ''].filter(Boolean).join(', ') || '—';

const formatRate = (r: Rate) => (Number.isNaN(r.value) ? 'n/a' : r.value >= 100 ? r.value.toFixed(0) : r.value.toFixed(2));

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

/** A plain-text table; the first column (and any in `left`) left-aligned, the rest right-aligned. */
function table(rows: string[][], left: number[] = []): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) =>
    r
      .map((cell, c) => (c === 0 || left.includes(c) ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
      .join('  ')
      .trimEnd();
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** Table rows: a heading row of `title` and the columns' labels, then one row per name (in first-seen order). */
function columns(title: string, cols: Array<{ label: string; rows: Array<[string, number]> }>, digits: number): string[][] {
  const names = [...new Set(cols.flatMap((c) => c.rows.map(([name]) => name)))];
  const cell = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(digits));
  return [[title, ...cols.map((c) => c.label)], ...names.map((name) => [name, ...cols.map((c) => cell(c.rows.find(([n]) => n === name)?.[1]))])];
}

/** Prints the figures beside their targets and writes bench/results.json. */
export function report({ figures, rates, notes, cpu = [], phases, perUnit = [], componentCores = [] }: Findings, machine: Record<string, unknown>): string {
  const rows = [['figure', 'p50 ms', 'p99 ms', 'target / reference (ms)', 'met?', 'requests', 'errors', 'req/s']];
  const json: Record<string, unknown> = {};
  for (const f of figures) {
    const s = summarise(f.run);
    json[f.key] = entry(f, s);
    const bound = f.target ? describe(f.target) : f.reference ? `ref: ${f.reference.p50} / ${f.reference.p99}` : '—';
    const verdict = f.target ? (met(s, f.target) ? 'yes' : 'NO') : '—';
    rows.push([f.label, s.p50.toFixed(1), s.p99.toFixed(1), bound, verdict, String(s.requests), String(s.errors), s.rps.toFixed(0)]);
  }
  const rateRows = [['rate', 'value', 'unit', 'target', 'met?', 'counted']];
  const rateJson: Record<string, unknown> = {};
  for (const r of rates) {
    const verdict = r.target ? (rateMet(r) ? 'yes' : 'NO') : '—';
    rateRows.push([r.label, formatRate(r), r.unit, describeRate(r), verdict, r.detail]);
    rateJson[r.key] = {
      value: Number.isNaN(r.value) ? null : round(r.value, 2),
      unit: r.unit,
      ...(r.target && { target_min: r.target.min ?? null, target_max: r.target.max ?? null, met: rateMet(r) }),
      detail: r.detail,
    };
  }
  const results = {
    generated_at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? null,
      memory_gb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      ...machine,
    },
    figures: json,
    rates: rateJson,
    ...(phases && { phases }),
    ...(cpu.length > 0 && { cpu_cores: cpu.map(({ label, split }) => ({ label, ...split })) }),
    ...(perUnit.length > 0 && {
      cpu_ms_per_unit: Object.fromEntries(
        perUnit.map((u) => [
          u.key,
          { label: u.label, unit: u.unit, units: u.units, ms: Object.fromEntries(u.ms), ...(u.counts && { counts: Object.fromEntries(u.counts) }) },
        ]),
      ),
    }),
    ...(componentCores.length > 0 && {
      cpu_cores_by_component: Object.fromEntries(componentCores.map((c) => [c.key, { label: c.label, cores: Object.fromEntries(c.cores) }])),
    }),
    notes,
  };
  const file = path.join(__dirname, '..', 'results.json');
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  const rateTable = rates.length ? `\n\n${table(rateRows, [5])}` : '';
  const cores = (x: number) => (Number.isNaN(x) ? 'n/a' : x.toFixed(2));
  const cpuRows = [['CPU, in cores of ' + os.cpus().length, 'seconds', 'bench process', 'load generator', 'Postgres+Temporal', 'rest of machine']];
  for (const { label, split } of cpu)
    cpuRows.push([label, split.seconds.toFixed(1), cores(split.server), cores(split.loadGenerator), cores(split.embedded), cores(split.rest)]);
  const cpuTable = cpu.length ? `\n\n${table(cpuRows)}` : '';
  const unitTables = [...new Set(perUnit.map((u) => u.unit))]
    .map((unit) => {
      const cols = perUnit.filter((u) => u.unit === unit);
      const ms = columns(
        `CPU ms per ${unit}`,
        cols.map((u) => ({ label: u.label, rows: u.ms })),
        2,
      );
      const counts = cols.some((u) => u.counts)
        ? columns(
            'per incident, from its workflow history',
            cols.map((u) => ({ label: u.label, rows: u.counts ?? [] })),
            1,
          )
        : [];
      if (counts.length) counts[0] = [counts[0][0], ...cols.map(() => '')];
      return `\n\n${table([...ms, ...counts])}`;
    })
    .join('');
  const coreTable = componentCores.length
    ? `\n\n${table(
        columns(
          'CPU by component, in cores',
          componentCores.map((c) => ({ label: c.label, rows: c.cores })),
          3,
        ),
      )}`
    : '';
  // A run of rates only (--hostile-only) prints no empty figure table.
  const figureTable = figures.length ? table(rows) : '';
  return `${figureTable}${rateTable}${cpuTable}${unitTables}${coreTable}\n\n${notes.map((n) => `* ${n}`).join('\n')}\n\nWrote ${path.relative(process.cwd(), file)}`.trimStart();
}
