import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from '../logger';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createActivities } from '../../activities';
import type { ChannelSender } from '../../activities/notify/types';
import type { PageLinks } from '../../activities/paging/render';
import type { ChannelId } from '../domain/channels';

export const WORKFLOWS_PATH = require.resolve('../../workflows');

export interface KlaxonWorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  orm: MikroORM;
  /** How pages leave: a sender per channel, and the links people act on. */
  paging: { senders: Record<ChannelId, ChannelSender>; links: PageLinks };
  /** A prebuilt bundle (tests build one per run); otherwise workflows are bundled at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
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
    activities: createActivities({ orm: opts.orm, paging: opts.paging }),
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    // Incident workflows are long-lived and mostly idle; keep many cached so updates stay fast.
    maxCachedWorkflows: 5000,
  });
  return { worker, connection };
}
