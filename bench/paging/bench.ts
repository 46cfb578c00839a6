import { cpuSnapshot, cpuSplit, type CpuSnapshot } from '../harness/cpu';
import type { IngestBench } from '../ingest/bench';
import { waitFor, type Waited } from '../harness/wait';
import type { RunResult } from '../harness/load';
import type { PagingProbe } from './probe';
import type { SmsCount, TwilioFakeProcess } from './twilio';

/** CPU counters at one instant, with the Twilio fake's own CPU time. */
export interface PagingMark {
  cpu: CpuSnapshot;
  fakeMs: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** What the paging phases share: the ingestion bench's helpers, the Twilio fake, the page probe. */
export class PagingBench {
  constructor(
    /** drain(), phase(), out and say, on the paging workspace. */
    readonly b: IngestBench,
    readonly fake: TwilioFakeProcess,
    readonly probe: PagingProbe,
  ) {}

  async mark(cpuAtStart?: CpuSnapshot): Promise<PagingMark> {
    const fakeMs = await this.fake.cpuMs();
    return { cpu: cpuAtStart ?? cpuSnapshot(), fakeMs };
  }

  /**
   * A CPU row. The fake is a child of this process, so /proc counts it with Postgres and
   * Temporal: its own count moves it to the load generator column (both stand for the outside world).
   */
  cpu(label: string, from: PagingMark, to: PagingMark, loadGeneratorMs = 0): void {
    const split = cpuSplit(from.cpu, to.cpu, loadGeneratorMs);
    const fake = round2((to.fakeMs - from.fakeMs) / (to.cpu.wallMs - from.cpu.wallMs));
    this.b.out.cpu.push({ label, split: { ...split, embedded: round2(split.embedded - fake), loadGenerator: round2(split.loadGenerator + fake) } });
  }

  /** Waits, up to `timeoutMs`, for `phone`'s first SMS: the start of a step due long after the last one. */
  async waitForFirstSms(phone: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await this.fake.count()).byTo[phone]) return true;
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  }

  /** Waits until `phone` has received `n` SMS in all (or nothing arrived for 30 s). */
  waitForSms(phone: string, n: number, what: string): Promise<Waited<SmsCount>> {
    const got = (c: SmsCount) => c.byTo[phone] ?? 0;
    return waitFor(
      () => this.fake.count(),
      (c) => got(c) >= n,
      got,
      (c) => this.b.say(`  waiting for ${what}: ${got(c)} of ${n} arrived`),
    );
  }
}

/** A latency figure's run from plain values: `missing` counts those that never arrived. */
export function valuesRun(values: number[], like: { durationS: number; concurrency: number }, missing: Record<string, number> = {}): RunResult {
  const failures = Object.fromEntries(Object.entries(missing).filter(([, n]) => n > 0));
  return { latencies: values, failures, samples: [], transportErrors: 0, durationS: like.durationS, concurrency: like.concurrency };
}

/** `Klaxon #42 warning: …`: the incident number an SMS is about, or NaN. */
export function incidentNumberOf(body: string): number {
  const m = /^Klaxon #(\d+) /.exec(body);
  return m ? Number(m[1]) : NaN;
}
