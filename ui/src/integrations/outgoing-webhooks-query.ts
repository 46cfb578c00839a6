import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import type { Delivery, NewOutgoingWebhook, OutgoingWebhook } from './types';

/** Query keys: the list, and one subscription's delivery log. */
export const OUTGOING_KEY = ['outgoing-webhooks'] as const;
export const deliveriesKey = (id: string) => ['outgoing-webhooks', id, 'deliveries'] as const;

/** The subscriptions the signed-in member may manage. */
export const useOutgoingWebhooks = (enabled = true) => useApiQuery<OutgoingWebhook[]>([...OUTGOING_KEY], '/outgoing-webhooks', { enabled });

/** A subscription's latest deliveries; fetched again every few seconds while it is open (the engine sends them). */
export const useDeliveries = (id: string) =>
  useApiQuery<Delivery[]>([...deliveriesKey(id)], `/outgoing-webhooks/${id}/deliveries?limit=50`, { refetchInterval: 5_000 });

type Body = Record<string, unknown>;

/** Creating, changing, testing and redelivering: each fetches the lists it changes again. */
export function useOutgoingWebhookActions(opts: { onCreated?: (h: NewOutgoingWebhook) => void; onSaved?: () => void } = {}) {
  const create = useAction(async (body: Body) => (await api<NewOutgoingWebhook>('POST', '/outgoing-webhooks', body)).data, {
    invalidate: [[...OUTGOING_KEY]],
    onSuccess: opts.onCreated,
  });
  const update = useAction(async ({ id, body }: { id: string; body: Body }) => (await api<OutgoingWebhook>('PUT', `/outgoing-webhooks/${id}`, body)).data, {
    invalidate: [[...OUTGOING_KEY]],
    onSuccess: opts.onSaved,
  });
  const test = useAction(async (id: string) => (await api<Delivery>('POST', `/outgoing-webhooks/${id}/test`)).data, { invalidate: [[...OUTGOING_KEY]] });
  const redeliver = useAction(
    async ({ id, deliveryId }: { id: string; deliveryId: string }) =>
      (await api<Delivery>('POST', `/outgoing-webhooks/${id}/deliveries/${deliveryId}/redeliver`)).data,
    { invalidate: [[...OUTGOING_KEY]] },
  );
  return { create, update, test, redeliver };
}
