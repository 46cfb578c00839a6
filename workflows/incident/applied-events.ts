/**
 * The alert events a workflow has applied, so a redelivered one is ignored. Bounded: the outbox
 * redelivers within seconds, so the last few hundred ids are enough, and they must fit in the
 * continueAsNew input.
 */
export class AppliedEvents {
  private readonly ids: string[];
  private readonly set: Set<string>;

  constructor(
    initial: readonly string[] = [],
    private readonly capacity = 500,
  ) {
    this.ids = initial.slice(-capacity);
    this.set = new Set(this.ids);
  }

  /** Records the id; false when it was already applied. */
  add(id: string): boolean {
    if (this.set.has(id)) return false;
    this.ids.push(id);
    this.set.add(id);
    if (this.ids.length > this.capacity) this.set.delete(this.ids.shift()!);
    return true;
  }

  toJSON(): string[] {
    return [...this.ids];
  }
}
