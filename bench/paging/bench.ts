import type { ComponentSample } from '../harness/component-cpu';
import { cpuSnapshot, cpuSplit, type CpuSnapshot } from '../harness/cpu';
import type { LoadRun } from '../harness/load';
import { pacedLoad, type Pace } from '../harness/measured-load';
import { round } from '../harness/numbers';
import { waitFor, type Waited } from '../harness/wait';
import type { IngestBench } from '../ingest/bench';
import type { PagingProbe } from './probe';
import type { SmsCount, TwilioFakeProcess } from './twilio';

/** CPU counters at one instant, with the Twilio fake's own CPU time and the stack's per component. */
export interface PagingMark {
  cpu: CpuSnapshot;
  fakeMs: number;
  components: ComponentSample;
}

/** What the paging phases share: the ingestion bench's helpers, the Twilio fake, the page probe. */
export class PagingBench {
  /** SQL statements the stack's knex has sent since this bench began (the bench's own probes use their own connections). */
  queries = 0;

  constructor(
    /** drain(), phase(), out and say, on the paging workspace. */
    readonly b: IngestBench,
    readonly fake: TwilioFakeProcess,
    readonly probe: PagingProbe,
  ) {
    b.stack.orm.em.getKnex().on('query', (q: { sql?: string }) => {
      this.queries++;
      if (this.statements) {
        const sql = (q.sql ?? '').replace(/\s+/g, ' ').slice(0, 160);
        this.statements.set(sql, (this.statements.get(sql) ?? 0) + 1);
      }
    });
  }

  /** With `BENCH_SQL_TALLY` set: each statement's text (its start) and how often it ran, since the tally was last taken. */
  private statements = process.env.BENCH_SQL_TALLY ? new Map<string, number>() : undefined;

  /** The statements tallied since the last call, most frequent first, and a fresh tally. */
  takeStatements(): Array<[string, number]> {
    const out = [...(this.statements ?? [])].sort((a, b) => b[1] - a[1]);
    this.statements?.clear();
    return out;
  }

  async mark(): Promise<PagingMark> {
    const fakeMs = await this.fake.cpuMs();
    return { cpu: cpuSnapshot(), fakeMs, components: this.b.stack.components.mark() };
  }

  /**
   * First-time alert events titled `<prefix> <n>`, paced, from the load generator: each opens an
   * incident. Returns the run and the mark its measured run started at.
   */
  async openIncidents(url: string, prefix: string, pace: Pace): Promise<{ run: LoadRun; start: PagingMark }> {
    const fakeMs = await this.fake.cpuMs();
    let components: ComponentSample | undefined;
    const { run, cpuAtStart } = await pacedLoad(url, { kind: 'alert', prefix }, pace, () => (components = this.b.stack.components.mark()));
    return { run, start: { cpu: cpuAtStart, fakeMs, components: components! } };
  }

  /**
   * A CPU row. The fake is a child of this process, so /proc counts it with Postgres and
   * Temporal: its own count moves it to the load generator column (both stand for the outside world).
   */
  cpu(label: string, from: PagingMark, to: PagingMark, loadGeneratorMs = 0): void {
    const split = cpuSplit(from.cpu, to.cpu, loadGeneratorMs);
    const fake = round((to.fakeMs - from.fakeMs) / (to.cpu.wallMs - from.cpu.wallMs), 2);
    this.b.out.cpu.push({ label, split: { ...split, embedded: round(split.embedded - fake, 2), loadGenerator: round(split.loadGenerator + fake, 2) } });
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

/** `Klaxon #42 warning: …`: the incident number an SMS is about, or NaN. */
export function incidentNumberOf(body: string): number {
  const m = /^Klaxon #(\d+) /.exec(body);
  return m ? Number(m[1]) : NaN;
}
