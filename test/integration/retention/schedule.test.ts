import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { loadConfig, type Config } from '../../../src/config';
import { openOrm, type MikroORM } from '../../../src/db/orm';
import { noPurgeCounts, type PurgeCounts } from '../../../src/domain/retention';
import { createLogger } from '../../../src/logger';
import { ensureRetentionSchedule } from '../../../src/services/retention';
import { bootStack, type BootedStack } from '../../../src/stack/boot';
import { RETENTION_SCHEDULE_ID } from '../../../src/contracts/workflows';
import { NO_ROWS, RetentionSeed, SEEDED_ROWS } from '../../support/retention-seed';
import { TEST_SECRET } from '../../support/stack';
import { waitFor } from '../../support/wait';

// The retention schedule on the run's real Temporal dev server: registered by `klaxon worker` as
// it starts (two at once), and running retentionWorkflow on that worker when it fires.
const taskQueue = `retention-test-${randomUUID()}`;
let config: Config;
const quiet = { logger: createLogger('warn'), say: () => {} };
let connection: Connection;
let client: Client;
let orm: MikroORM;
const stacks: BootedStack[] = [];

beforeAll(async () => {
  // The file's own database is only known once the set-up hook ran: read it here, not at load.
  config = loadConfig({
    DATABASE_URL: process.env.KLAXON_TEST_DATABASE_URL,
    TEMPORAL_ADDRESS: process.env.KLAXON_TEST_TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: taskQueue,
    KLAXON_SECRET: TEST_SECRET,
    LOG_LEVEL: 'warn',
  });
  connection = await Connection.connect({ address: process.env.KLAXON_TEST_TEMPORAL_ADDRESS! });
  client = new Client({ connection });
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 2);
});
afterAll(async () => {
  for (const s of stacks) await s.stop();
  // The server outlives this file: leave no schedule firing at a task queue nobody polls.
  await client.schedule
    .getHandle(RETENTION_SCHEDULE_ID)
    .delete()
    .catch(() => undefined);
  await orm?.close();
  await connection?.close();
});

describe('the retention schedule', () => {
  it('when two workers start at once, then both come up and the schedule exists: hourly, overlap SKIP, retentionWorkflow on their task queue', async () => {
    stacks.push(...(await Promise.all([bootStack(config, 'worker', quiet), bootStack(config, 'worker', quiet)])));

    const schedule = await client.schedule.getHandle(RETENTION_SCHEDULE_ID).describe();
    expect(schedule.spec.intervals).toMatchObject([{ every: 3_600_000 }]);
    expect(schedule.policies.overlap).toBe('SKIP');
    expect(schedule.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retentionWorkflow', taskQueue });
    expect(schedule.state.paused).toBe(false);
  });

  it('when it is registered again, concurrently, then each call succeeds and one schedule stays', async () => {
    const results = await Promise.all([ensureRetentionSchedule(client, { taskQueue }), ensureRetentionSchedule(client, { taskQueue })]);
    expect(results).toEqual(['updated', 'updated']);
    const ids: string[] = [];
    for await (const s of client.schedule.list()) if (s.scheduleId === RETENTION_SCHEDULE_ID) ids.push(s.scheduleId);
    expect(ids.length).toBeLessThanOrEqual(1); // listing is eventually consistent; describe is not
    expect((await client.schedule.getHandle(RETENTION_SCHEDULE_ID).describe()).action).toMatchObject({ taskQueue });
  });

  it('when it fires, then retentionWorkflow runs on the worker and purges what expired, answering the counts', async () => {
    const seed = new RetentionSeed(orm);
    const free = await seed.workspace('FREE');
    const old = await seed.incident(free, 'CLOSED', 10, 9);
    const recent = await seed.incident(free, 'CLOSED', 3, 1);
    await seed.callback(30);

    const handle = client.schedule.getHandle(RETENTION_SCHEDULE_ID);
    await handle.trigger();
    const workflowId = await waitFor(async () => (await handle.describe()).info.recentActions.at(-1)?.action.workflow.workflowId, 15_000, 'the scheduled run');
    const deleted = (await client.workflow.getHandle(workflowId).result()) as PurgeCounts;

    expect(workflowId.startsWith(RETENTION_SCHEDULE_ID)).toBe(true);
    expect(deleted).toEqual({
      ...noPurgeCounts(),
      provider_callbacks: 1,
      incidents: 1,
      alerts: 2,
      timeline_entries: 2,
      notifications: 1,
      user_notifications: 1,
      ingest_outbox: 1,
    });
    expect(await seed.rowsOf(old)).toEqual(NO_ROWS);
    expect(await seed.rowsOf(recent)).toEqual(SEEDED_ROWS);
  });
});
