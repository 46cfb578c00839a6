import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/**
 * Serving health (docs/architecture.md, "Serving health and readiness"): whether this process can
 * serve, as `/readyz` answers it on every listener. Not to be confused with a workspace's on-call
 * readiness (src/services/paging/readiness.ts, docs/readiness.md: who would not be reached).
 */
export interface ServingHealth {
  ready: boolean;
  checks: { postgres: boolean; temporal: boolean; worker: boolean };
  missing: string[];
}

/** How recently a worker must have polled the task queue to count as present. */
const POLLER_FRESH_MS = 70_000;

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref())]);

/** Checks Postgres, the Temporal frontend and a worker polling our task queue, in parallel. */
export async function checkServingHealth(deps: { orm: MikroORM; temporal: Client; taskQueue: string }): Promise<ServingHealth> {
  const postgres = withTimeout(deps.orm.em.getConnection().execute('select 1'), 2000).then(
    () => true,
    () => false,
  );
  const pollers = withTimeout(
    deps.temporal.workflowService.describeTaskQueue({
      namespace: deps.temporal.options.namespace,
      taskQueue: { name: deps.taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    }),
    2000,
  ).then(
    (res) => ({
      temporal: true,
      worker: (res.pollers ?? []).some((p) => {
        const seconds = Number(p.lastAccessTime?.seconds ?? 0);
        return Date.now() - seconds * 1000 < POLLER_FRESH_MS;
      }),
    }),
    () => ({ temporal: false, worker: false }),
  );
  const [pg, tq] = await Promise.all([postgres, pollers]);
  const checks = { postgres: pg, temporal: tq.temporal, worker: tq.worker };
  const missing = Object.entries(checks)
    .filter(([, ok]) => !ok)
    .map(([name]) => name);
  return { ready: missing.length === 0, checks, missing };
}
