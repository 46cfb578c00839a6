import type { Logger } from '../../logger';

/**
 * A background drain in every API process: sweeps on an interval, runs now when kicked, folds
 * kicks that arrive during a pass into one more pass, and stops cleanly. What a pass does is the
 * owner's (the incident-event deliveries use it; docs/integrations.md).
 */
export class PassLoop {
  private running = false;
  private again = false;
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private current?: Promise<void>;

  constructor(
    private readonly drain: () => Promise<void>,
    private readonly logger: Logger,
    private readonly name: string,
  ) {}

  /** Sweeps every `intervalMs` until stopped. */
  start(intervalMs: number): void {
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
    this.kick();
  }

  /** Asks for a drain; kicks during one fold into one more. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.current = this.drain()
      .catch((err) => this.logger.warn({ err }, `${this.name} pass failed; will retry`))
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** No pass starts after this; resolves once the one running has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    while (this.running) await this.current;
  }
}
