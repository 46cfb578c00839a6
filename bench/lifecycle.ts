import type { Client } from '@temporalio/client';
import { incidentWorkflowId, lifecycleUpdates, type IncidentSnapshot } from '../workflows/definitions';
import { cannon, closedLoop, type LoadShape, type RunResult } from './load';
import type { IncidentPool, Loan } from './pool';
import type { BenchWorkspace } from './seed';

/** Answers that were 2xx but did not move the incident where the operation should have. */
interface Checks {
  wrongStatus: number;
}

/**
 * POST /incidents/{id}/{operation} through the customer API at fixed concurrency. Each request
 * borrows an incident from the pool in setupRequest and returns it in onResponse, so no two
 * in-flight requests touch one incident and every request is a real state change.
 */
export async function benchLifecycleApi(
  appUrl: string,
  ws: BenchWorkspace,
  pool: IncidentPool,
  shape: LoadShape,
): Promise<RunResult & Checks> {
  const checks: Checks = { wrongStatus: 0 };
  const samples: string[] = [];
  const base = `/api/v1/organizations/${ws.organizationId}/incidents`;
  const run = (amount?: number) =>
    cannon({
      url: appUrl,
      connections: shape.concurrency,
      ...(amount ? { amount } : { duration: shape.durationS }),
      headers: { Authorization: `Bearer ${ws.token}` },
      requests: [
        {
          method: 'POST',
          setupRequest: (req, context) => {
            const loan = pool.take();
            (context as { loan?: Loan }).loan = loan;
            return { ...req, path: `${base}/${loan.id}/${loan.operation}` };
          },
          onResponse: (status, body, context) => {
            const loan = (context as { loan?: Loan }).loan!;
            if (status === 200) {
              const answered = (JSON.parse(body) as { data: IncidentSnapshot }).data.status;
              if (answered !== loan.expect) checks.wrongStatus++;
              pool.give(loan.id, answered);
            } else {
              if (samples.length < 3) samples.push(`${status} on ${loan.operation}: ${body.slice(0, 200)}`);
              void pool.resync(loan.id);
            }
          },
        },
      ],
    });
  await run(shape.warmup);
  checks.wrongStatus = 0; // count the measured run only
  samples.length = 0;
  const measured = await run();
  return { ...measured, samples, ...checks };
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
