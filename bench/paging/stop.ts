import { concurrently } from '../harness/concurrently';
import { authorization, incidentsPath, type BenchWorkspace } from '../harness/workspace';

/**
 * Resolves then closes each incident through the customer API, `concurrency` at a time: a
 * closed incident's workflow completes, so it stops paging and leaves the worker's cache.
 * Answers other than 200 are counted by operation and status, not thrown.
 */
export async function closeIncidents(
  appUrl: string,
  ws: BenchWorkspace,
  ids: string[],
  concurrency = 8,
): Promise<{ closed: number; failures: Record<string, number> }> {
  const failures: Record<string, number> = {};
  let closed = 0;
  const call = async (id: string, op: 'resolve' | 'close') => {
    const res = await fetch(`${appUrl}${incidentsPath(ws)}/${id}/${op}`, { method: 'POST', headers: authorization(ws) });
    await res.arrayBuffer();
    if (res.status !== 200) failures[`${op} ${res.status}`] = (failures[`${op} ${res.status}`] ?? 0) + 1;
    return res.status === 200;
  };
  await concurrently(ids.length, concurrency, async (i) => {
    if ((await call(ids[i], 'resolve')) && (await call(ids[i], 'close'))) closed++;
  });
  return { closed, failures };
}
