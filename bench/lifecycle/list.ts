import { loadInChild, type LoadShape, type RunResult } from '../harness/load';
import { authorization, incidentsPath, type BenchWorkspace } from '../harness/workspace';

/** GET /incidents (with an optional query string) at fixed concurrency, after a short warm-up, from the load generator process. */
export function benchListIncidents(appUrl: string, ws: BenchWorkspace, query: string, shape: LoadShape): Promise<RunResult> {
  return loadInChild({
    url: `${appUrl}${incidentsPath(ws)}${query}`,
    method: 'GET',
    headers: authorization(ws),
    request: { kind: 'none' },
    shape: { kind: 'closed', concurrency: shape.concurrency, durationS: shape.durationS, warmup: shape.warmup },
  });
}

/** One page, fetched once, to check the endpoint answers what the benchmark thinks it does. */
export async function checkListPage(appUrl: string, ws: BenchWorkspace, query: string, expectCount: number): Promise<void> {
  const res = await fetch(`${appUrl}${incidentsPath(ws)}${query}`, { headers: authorization(ws) });
  const body = (await res.json()) as { data?: unknown[] };
  if (res.status !== 200 || body.data?.length !== expectCount) {
    throw new Error(`GET /incidents${query} answered ${res.status} with ${body.data?.length} incidents, expected ${expectCount}`);
  }
}
