/** Calls `fn(0)` … `fn(count - 1)` in order, at most `concurrency` at a time: each call starts as another ends. */
export async function concurrently(count: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await fn(next++);
    }),
  );
}
