import type { Client } from '@temporalio/client';
import { waitFor, type Waited } from './wait';

/** temporal.api.enums.v1 values, numeric so the bench does not import the proto package itself. */
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE_WORKFLOW = 1;
const TASK_QUEUE_TYPE_ACTIVITY = 2;

/** Tasks waiting on the task queue for a worker to take them. */
export interface Backlog {
  workflowTasks: number;
  activityTasks: number;
}

/**
 * The task queue's backlog as the server counts it (DescribeTaskQueue with report_stats). It sees
 * the normal queue only: a cached workflow's next tasks go to the worker's sticky queue, which it
 * does not count. What it catches is what delivered-but-not-run leaves behind, such as the first
 * workflow task of thousands of just-started incident workflows.
 */
export async function taskQueueBacklog(temporal: Client, namespace: string, taskQueue: string): Promise<Backlog> {
  const count = async (taskQueueType: number) => {
    const res = await temporal.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
      taskQueueType,
      reportStats: true,
    });
    return Number(res.stats?.approximateBacklogCount ?? 0);
  };
  const [workflowTasks, activityTasks] = await Promise.all([count(TASK_QUEUE_TYPE_WORKFLOW), count(TASK_QUEUE_TYPE_ACTIVITY)]);
  return { workflowTasks, activityTasks };
}

/** Waits until the worker has taken every backlogged task (or nothing moved for 30 s). */
export function drainTaskQueue(temporal: Client, namespace: string, taskQueue: string, onSlow?: (b: Backlog) => void): Promise<Waited<Backlog>> {
  const total = (b: Backlog) => b.workflowTasks + b.activityTasks;
  return waitFor(
    () => taskQueueBacklog(temporal, namespace, taskQueue),
    (b) => total(b) === 0,
    total,
    onSlow,
  );
}
