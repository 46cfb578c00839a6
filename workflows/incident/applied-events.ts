import { APPLIED_EVENTS_WINDOW } from '../../src/contracts/workflows';

/**
 * The alert events a workflow has applied, so a redelivered one is ignored. Bounded: the outbox
 * redelivers at most one relay pass late, and the ids must fit in the continueAsNew input.
 *
 * The window was 500 while the relay sent one signal per event in passes of 200 rows; no history
 * from then redelivers an event more than a pass late, so the longer window decides every old
 * history exactly as it was decided, and replays stay deterministic without a patch.
 */
export class AppliedEvents {
  private readonly ids: string[];
  private readonly set: Set<string>;

  constructor(
    initial: readonly string[] = [],
    private readonly capacity = APPLIED_EVENTS_WINDOW,
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
