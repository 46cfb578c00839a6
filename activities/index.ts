import type { MikroORM } from '@mikro-orm/postgresql';
import { createHeartbeatActivities } from './heartbeats';
import { createProjectionActivities } from './projections';

/** Assembles every activity the worker registers. */
export function createActivities(deps: { orm: MikroORM }) {
  return { ...createProjectionActivities(deps), ...createHeartbeatActivities(deps) };
}
