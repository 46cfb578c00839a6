/**
 * Serialises handlers that await activities (style rule 8). Validators run before a handler
 * starts, so two accepted updates must still be decided one after the other. A promise chain,
 * not `condition(() => !held)`: two waiters released in one activation would both see the lock
 * free before either took it.
 */
export class HandlerLock {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  run<T>(fn: () => Promise<T>): Promise<T> {
    this.pending++;
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => this.pending--,
      () => this.pending--,
    );
    return result;
  }

  get free(): boolean {
    return this.pending === 0;
  }
}
