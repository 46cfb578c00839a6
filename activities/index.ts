import type { MikroORM } from '@mikro-orm/postgresql';
import { createHeartbeatActivities } from './heartbeats';
import { createPagingActivities } from './paging';
import type { Channel, ChannelSender } from './notify/types';
import type { PageLinks } from './paging/render';
import { createProjectionActivities } from './projections';

/** Assembles every activity the worker registers. */
export function createActivities(deps: { orm: MikroORM; paging: { senders: Record<Channel, ChannelSender>; links: PageLinks } }) {
  return {
    ...createProjectionActivities(deps),
    ...createHeartbeatActivities(deps),
    ...createPagingActivities({ orm: deps.orm, ...deps.paging }),
  };
}
