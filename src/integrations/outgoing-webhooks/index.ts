/**
 * Outgoing webhooks: the customers' endpoints that receive the incident-event feed
 * (docs/integrations.md). The fan-out from the feed (fan-out.ts), Standard Webhooks signatures
 * (signature.ts), the retry schedule (schedule.ts) and the deliverer (deliverer.ts); the
 * subscriptions themselves are managed in src/services/outgoing-webhooks/.
 */
import { postJson } from '../../services/targets';
import type { ProviderModule } from '../types';
import { OutgoingWebhookDeliverer } from './deliverer';

export { OutgoingWebhookDeliverer, type PostJson } from './deliverer';
export { FAILING_DISABLES_AFTER_MS } from './schedule';

/** The registry's `outgoing-webhooks` entry: a feed consumer, no paging channel, no hooks. */
export const outgoingWebhooks = {
  feedConsumer: (deps) =>
    new OutgoingWebhookDeliverer({
      orm: deps.orm,
      sealer: deps.sealer,
      post: (url, opts) => postJson(url, { ...opts, allowPrivate: deps.allowPrivateTargets }),
      logger: deps.logger,
      mailer: deps.mailer,
      appUrl: deps.appUrl,
    }),
} satisfies ProviderModule;
