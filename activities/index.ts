import type { MikroORM } from '@mikro-orm/postgresql';
import { createDrillActivities } from './drills';
import { createHeartbeatActivities } from './heartbeats';
import { createMonitorActivities } from './monitors';
import { createPagingActivities } from './paging';
import type { ChannelSender } from '../src/integrations/types';
import type { ChannelId } from '../src/domain/channels';
import type { PageLinks } from './paging/render';
import { createProjectionActivities } from './projections';
import { createRetentionActivities } from './retention';
import type { RetentionAges } from '../src/domain/retention';

/** Assembles every activity the worker registers. */
export function createActivities(deps: {
  orm: MikroORM;
  paging: { senders: Record<ChannelId, ChannelSender>; links: PageLinks };
  retention?: RetentionAges;
  monitors?: { allowPrivate: boolean };
}) {
  return {
    ...createProjectionActivities(deps),
    ...createHeartbeatActivities(deps),
    ...createMonitorActivities({ orm: deps.orm, monitors: deps.monitors }),
    ...createPagingActivities({ orm: deps.orm, ...deps.paging }),
    ...createRetentionActivities({ orm: deps.orm, ages: deps.retention }),
    ...createDrillActivities({ orm: deps.orm, ...deps.paging }),
  };
}
