/** How long one page_after hold waits before the spell plans again (it also plans again on each attached alert). */
export const PAGE_AFTER_RECHECK_MS = 24 * 3600 * 1000;

/**
 * Whether `count` of the alert times (ms, oldest first) fall within `withinSeconds` of each other:
 * a grouped incident under `page_after` pages once that is so (docs/grouping.md, "Holding pages").
 */
export function pageAfterReached(times: readonly number[], count: number, withinSeconds: number): boolean {
  for (let i = 0; i + count - 1 < times.length; i++) if (times[i + count - 1] - times[i] <= withinSeconds * 1000) return true;
  return false;
}

/** The decision entry's text of a held grouped incident. */
export function pageAfterHeldMessage(rule: string, count: number, withinSeconds: number, arrived: number): string {
  return `Not paged: grouping rule “${rule}” pages once ${count} alerts arrive within ${withinSeconds} s (${arrived} so far); it pages then if still triggered, and resolves unpaged if every alert resolves first.`;
}
