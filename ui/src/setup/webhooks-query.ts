import { useQuery } from '@tanstack/react-query';
import type { Webhook } from './types';

/**
 * The workspace's webhooks. GET /api/webhooks answers the spec's own shape ({success, webhooks,
 * total}), not the data envelope, so it is read here rather than through useApiQuery.
 */
export function useWebhooks() {
  return useQuery({
    queryKey: ['webhooks'],
    queryFn: async () => ((await (await fetch('/api/webhooks', { credentials: 'same-origin' })).json()) as { webhooks: Webhook[] }).webhooks,
  });
}
