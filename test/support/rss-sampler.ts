/**
 * This process's resident memory, sampled every 20 ms while a scenario runs: the peak, and its
 * growth over the RSS at the start. A stack under test runs in the test's process, so this is
 * the API's (and the worker's) memory. Garbage collected first when Node exposes `gc`.
 */
export class RssSampler {
  readonly baseline: number;
  peak: number;
  private readonly timer: NodeJS.Timeout;

  private constructor() {
    (globalThis as { gc?: () => void }).gc?.();
    this.baseline = process.memoryUsage.rss();
    this.peak = this.baseline;
    this.timer = setInterval(() => this.sample(), 20);
  }

  static start(): RssSampler {
    return new RssSampler();
  }

  private sample() {
    this.peak = Math.max(this.peak, process.memoryUsage.rss());
  }

  /** Stops sampling: the peak and its growth over the baseline, in bytes. */
  stop(): { baseline: number; peak: number; growth: number } {
    this.sample();
    clearInterval(this.timer);
    return { baseline: this.baseline, peak: this.peak, growth: this.peak - this.baseline };
  }
}

export const MiB = 1024 * 1024;
