import type { MikroORM } from '@mikro-orm/postgresql';
import { createHeartbeatActivities } from './heartbeats';
import { createPagingActivities } from './paging';
import type { ChannelSender } from './notify/types';
import type { ChannelId } from '../src/domain/channels';
import type { PageLinks } from './paging/render';
import { createProjectionActivities } from './projections';

/** Assembles every activity the worker registers. */
export function createActivities(deps: { orm: MikroORM; paging: { senders: Record<ChannelId, ChannelSender>; links: PageLinks } }) {
  return {
    ...createProjectionActivities(deps),
    ...createHeartbeatActivities(deps),
    ...createPagingActivities({ orm: deps.orm, ...deps.paging }),
  };
}
