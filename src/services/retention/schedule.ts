import type { Client, ScheduleOptions } from '@temporalio/client';
import { RETENTION_SCHEDULE_ID, type RetentionWorkflowInput } from '../../contracts/workflows';

/** What the retention schedule is: hourly, never two purges at once, run on the worker's task queue. */
function retentionSchedule(taskQueue: string) {
  const args: [RetentionWorkflowInput] = [{}];
  return {
    // Interval specs are aligned to the epoch: updating the schedule never shifts its next run.
    spec: { intervals: [{ every: '1 hour' }] },
    action: { type: 'startWorkflow' as const, workflowType: 'retentionWorkflow', workflowId: RETENTION_SCHEDULE_ID, taskQueue, args },
    // A purge still running when the next is due: skip that one. Missed runs are not caught up
    // beyond the last hour: one purge deletes everything that expired meanwhile anyway.
    policies: { overlap: 'SKIP' as const, catchupWindow: '1 hour' },
  } satisfies Omit<ScheduleOptions, 'scheduleId'>;
}

/**
 * Creates the retention schedule, or brings an existing one up to date (task queue, interval):
 * run by every worker as it starts, so several starting at once each succeed.
 */
export async function ensureRetentionSchedule(client: Client, opts: { taskQueue: string }): Promise<'created' | 'updated'> {
  // Loaded here, not at the top: the CLI reaches this module's neighbours without Temporal.
  const { ScheduleAlreadyRunning } = await import('@temporalio/client');
  const schedule = retentionSchedule(opts.taskQueue);
  try {
    await client.schedule.create({ scheduleId: RETENTION_SCHEDULE_ID, ...schedule });
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  await client.schedule.getHandle(RETENTION_SCHEDULE_ID).update((previous) => ({ ...previous, ...schedule }));
  return 'updated';
}
