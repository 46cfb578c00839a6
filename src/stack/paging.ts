import type { MikroORM } from '@mikro-orm/postgresql';
import { createChannelSenders } from '../integrations/wiring';
import type { ChannelSender } from '../integrations/types';
import type { ChannelId } from '../domain/channels';
import type { PageLinks } from '../../activities/paging/render';
import type { Config } from '../config';
import { createSealer } from '../services/sealing/seal';
import { resolveSecret } from './secret';

/** What the worker's paging activities need: a sender per channel and the links people act on. */
export function pagingDeps(config: Config, orm: MikroORM): { senders: Record<ChannelId, ChannelSender>; links: PageLinks } {
  const secret = resolveSecret(config);
  return {
    // The sealer opens a Slack installation's bot token for Slack DMs.
    senders: createChannelSenders(config.notify, { orm, sealer: createSealer(secret) }),
    links: { appUrl: config.urls.app, secret, ttlSeconds: config.pageLinkTtlSeconds },
  };
}
