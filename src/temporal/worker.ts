import { existsSync } from 'node:fs';
import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from '../logger';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createActivities } from '../../activities';
import type { ChannelSender } from '../integrations/types';
import type { PageLinks } from '../../activities/paging/render';
import type { ChannelId } from '../domain/channels';
import type { RetentionAges } from '../domain/retention';
import { BUILT_WORKFLOW_BUNDLE, RUNNING_BUILT } from '../paths';

/** The workflows module: workflows/index.ts from the sources, dist/workflows/index.js built. */
export const WORKFLOWS_PATH = require.resolve('../../workflows');

export interface KlaxonWorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  orm: MikroORM;
  /** How pages leave: a sender per channel, and the links people act on. */
  paging: { senders: Record<ChannelId, ChannelSender>; links: PageLinks };
  /** How long the retention purge keeps what has no plan window (defaults: docs/architecture.md, "Retention"). */
  retention?: RetentionAges;
  /** HTTP monitors: whether checks may reach private addresses (MONITOR_ALLOW_PRIVATE; default no). */
  monitors?: { allowPrivate: boolean };
  /** A prebuilt bundle (tests build one per run); otherwise see workflowSource. */
  workflowBundle?: WorkerOptions['workflowBundle'];
}

/**
 * Where the worker's workflow code comes from: the caller's bundle; built, the bundle the build
 * wrote beside the code it was made from; from the sources, webpack at start, so an edited
 * workflow is always what runs.
 */
export function workflowSource(given?: WorkerOptions['workflowBundle']): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  if (given) return { workflowBundle: given };
  if (RUNNING_BUILT && existsSync(BUILT_WORKFLOW_BUNDLE)) return { workflowBundle: { codePath: BUILT_WORKFLOW_BUNDLE } };
  return { workflowsPath: WORKFLOWS_PATH };
}

/** Sends the Temporal SDK's own logs (warnings and up) through our JSON logger. */
export function installTemporalRuntime(logger: Logger): void {
  const forward = (level: LogLevel, message: string, meta?: Record<string, unknown>) => {
    const line = { component: 'temporal', ...meta };
    if (level === 'ERROR') logger.error(line, message);
    else logger.warn(line, message);
  };
  Runtime.install({ logger: new DefaultLogger('WARN', ({ level, message, meta }) => forward(level, message, meta)) });
}

/** A worker for Klaxon's task queue; the caller runs it and closes the connection after. */
export async function createKlaxonWorker(opts: KlaxonWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: opts.address });
  const worker = await Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: createActivities({ orm: opts.orm, paging: opts.paging, retention: opts.retention, monitors: opts.monitors }),
    ...workflowSource(opts.workflowBundle),
    // Incident workflows are long-lived and mostly idle; keep many cached so updates stay fast.
    maxCachedWorkflows: 5000,
  });
  return { worker, connection };
}
