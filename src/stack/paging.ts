import type { MikroORM } from '@mikro-orm/postgresql';
import { createChannelSenders } from '../../activities/notify/senders';
import type { Channel, ChannelSender } from '../../activities/notify/types';
import type { PageLinks } from '../../activities/paging/render';
import type { Config } from '../config';
import { resolveSecret } from './secret';

/** What the worker's paging activities need: a sender per channel and the links people act on. */
export function pagingDeps(config: Config, orm: MikroORM): { senders: Record<Channel, ChannelSender>; links: PageLinks } {
  return {
    senders: createChannelSenders(config.notify, { orm }),
    links: { appUrl: config.urls.app, secret: resolveSecret(config), ttlSeconds: config.pageLinkTtlSeconds },
  };
}
