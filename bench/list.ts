import { cannon, type LoadShape, type RunResult } from './load';
import type { BenchWorkspace } from './seed';

/** GET /incidents (with an optional query string) at fixed concurrency, after a short warm-up. */
export async function benchListIncidents(appUrl: string, ws: BenchWorkspace, query: string, shape: LoadShape): Promise<RunResult> {
  const opts = {
    url: `${appUrl}/api/v1/organizations/${ws.organizationId}/incidents${query}`,
    connections: shape.concurrency,
    headers: { Authorization: `Bearer ${ws.token}` },
  };
  await cannon({ ...opts, amount: shape.warmup });
  return cannon({ ...opts, duration: shape.durationS });
}

/** One page, fetched once, to check the endpoint answers what the benchmark thinks it does. */
export async function checkListPage(appUrl: string, ws: BenchWorkspace, query: string, expectCount: number): Promise<void> {
  const res = await fetch(`${appUrl}/api/v1/organizations/${ws.organizationId}/incidents${query}`, {
    headers: { Authorization: `Bearer ${ws.token}` },
  });
  const body = (await res.json()) as { data?: unknown[] };
  if (res.status !== 200 || body.data?.length !== expectCount) {
    throw new Error(`GET /incidents${query} answered ${res.status} with ${body.data?.length} incidents, expected ${expectCount}`);
  }
}
