import type { MikroORM } from '@mikro-orm/postgresql';
import { createPagingSenders } from '../integrations/wiring';
import type { ChannelSender } from '../integrations/types';
import type { ChannelId } from '../domain/channels';
import type { PageLinks } from '../../activities/paging/render';
import type { PagingCarriers } from '../../activities/paging/carriers';
import type { Config } from '../config';
import { createSealer } from '../services/sealing/seal';
import { resolveSecret } from './secret';

/**
 * What the worker's paging activities need: a sender per channel, the phone channels' carriers
 * with their routes and failover wait (docs/reliability.md, "Carriers"), and the links people act on.
 */
export function pagingDeps(config: Config, orm: MikroORM): { senders: Record<ChannelId, ChannelSender>; carriers: PagingCarriers; links: PageLinks } {
  const secret = resolveSecret(config);
  // The sealer opens a Slack installation's bot token for Slack DMs.
  const { senders, carriers } = createPagingSenders(config.notify, { orm, sealer: createSealer(secret) });
  return {
    senders,
    carriers: {
      senders: carriers,
      routes: config.carriers.routes,
      failoverAfterSeconds: config.carriers.failoverAfterSeconds,
      onReports: config.carriers.onReports,
    },
    links: { appUrl: config.urls.app, secret, ttlSeconds: config.pageLinkTtlSeconds },
  };
}
