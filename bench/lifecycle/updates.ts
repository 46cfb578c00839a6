import type { Client } from '@temporalio/client';
import { incidentWorkflowId, lifecycleUpdates } from '../../src/contracts/workflows';
import { closedLoop, loadInChild, type LoadShape, type RunResult } from '../harness/load';
import type { IncidentPool } from '../harness/pool';
import { authorization, incidentsPath, type BenchWorkspace } from '../harness/workspace';

/** Answers that were 2xx but did not move the incident where the operation should have. */
interface Checks {
  wrongStatus: number;
}

/**
 * POST /incidents/{id}/{operation} through the customer API at fixed concurrency, from the load
 * generator process: the pool's incidents are lent to it for the run (bench/harness/lifecycle-requests.ts
 * keeps one request per incident and every request a real state change) and come back after.
 */
export async function benchLifecycleApi(appUrl: string, ws: BenchWorkspace, pool: IncidentPool, shape: LoadShape): Promise<RunResult & Checks> {
  const incidents = await pool.takeAll();
  const run = await loadInChild({
    url: appUrl,
    method: 'POST',
    headers: authorization(ws),
    request: { kind: 'lifecycle', basePath: incidentsPath(ws), incidents },
    shape: { kind: 'closed', concurrency: shape.concurrency, durationS: shape.durationS, warmup: shape.warmup },
  });
  for (const i of run.lifecycle!.idle) pool.give(i.id, i.status);
  return { ...run, wrongStatus: run.lifecycle!.wrongStatus };
}

/**
 * The same cycle as a bare Temporal Update (client → server → worker → projection activity →
 * answer), without HTTP, auth, the projection read and update-with-start: the API's floor.
 */
export async function benchRawUpdate(temporal: Client, pool: IncidentPool, shape: LoadShape): Promise<RunResult & Checks> {
  const checks: Checks = { wrongStatus: 0 };
  const actor = { type: 'system' as const, id: null, via: 'bench' };
  const once = async () => {
    const loan = pool.take();
    try {
      const handle = temporal.workflow.getHandle(incidentWorkflowId(loan.id));
      const snapshot = await handle.executeUpdate(lifecycleUpdates[loan.operation], { args: [{ actor }] });
      if (snapshot.status !== loan.expect) checks.wrongStatus++;
      pool.give(loan.id, snapshot.status);
    } catch (err) {
      void pool.resync(loan.id);
      throw err;
    }
  };
  await closedLoop({ concurrency: shape.concurrency, amount: shape.warmup }, once);
  checks.wrongStatus = 0; // count the measured run only
  const measured = await closedLoop({ concurrency: shape.concurrency, durationMs: shape.durationS * 1000 }, once);
  return { ...measured, ...checks };
}
