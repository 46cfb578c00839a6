/**
 * The health pinger's process (healthz-pinger.ts): GETs HEALTH_URL, one request after another,
 * and on `{ type: 'take' }` answers with what happened since the last take. A process of its
 * own: a stack under test shares the test's event loop, so a pinger there would stall with the
 * API it measures and see nothing.
 */
const url = process.env.HEALTH_URL!;
let taken = { latencies: [] as number[], failures: [] as string[] };
let stopping = false;

process.on('message', (msg: { type: string }) => {
  if (msg.type === 'take') {
    process.send!(taken);
    taken = { latencies: [], failures: [] };
  }
  if (msg.type === 'stop') stopping = true;
});

void (async () => {
  while (!stopping) {
    const started = performance.now();
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
      await res.arrayBuffer();
      if (res.ok) taken.latencies.push(performance.now() - started);
      else taken.failures.push(`${res.status}`);
    } catch (err) {
      taken.failures.push((err as Error).message);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  process.disconnect();
})();
