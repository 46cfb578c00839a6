import { condition } from '@temporalio/workflow';

/**
 * Serialises handlers that await activities: validators run before a handler starts, so
 * two accepted updates must still be decided one after the other (style rule 8).
 */
export class HandlerLock {
  private held = false;

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await condition(() => !this.held);
    this.held = true;
    try {
      return await fn();
    } finally {
      this.held = false;
    }
  }

  get free(): boolean {
    return !this.held;
  }
}
