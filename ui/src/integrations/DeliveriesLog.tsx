import { Badge, Button, Table, Text } from '@mantine/core';
import { Empty, LoadError, Loading } from '../components/PageStates';
import { TableHead } from '../components/TableHead';
import { deliveryStatus, STATUS_COLORS, when } from './outgoing-webhooks';
import { useDeliveries, useOutgoingWebhookActions } from './outgoing-webhooks-query';
import type { OutgoingWebhook } from './types';

const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** A subscription's latest deliveries, newest first, each with "Redeliver" (same event id, sent again). */
export function DeliveriesLog({ hook }: { hook: OutgoingWebhook }) {
  const deliveries = useDeliveries(hook.id);
  const { redeliver } = useOutgoingWebhookActions();
  if (deliveries.isPending) return <Loading what="deliveries" />;
  if (deliveries.error) return <LoadError what="deliveries" error={deliveries.error} />;
  if (!deliveries.data.length) return <Empty>No deliveries yet. “Send test” queues a ping; incidents on its services send the rest.</Empty>;
  return (
    <Table.ScrollContainer minWidth={700}>
      <Table aria-label={`Deliveries to ${hook.url}`} verticalSpacing="xs">
        <TableHead columns={['Event', 'Status', 'Code', 'Latency', { label: 'Time', style: NOWRAP }, 'Attempts']} actions />
        <Table.Tbody>
          {deliveries.data.map((d) => {
            const status = deliveryStatus(d);
            return (
              <Table.Tr key={d.id}>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {d.type}
                  </Text>
                </Table.Td>
                <Table.Td style={NOWRAP}>
                  <Badge color={STATUS_COLORS[status]} variant="light" styles={{ label: { overflow: 'visible' } }}>
                    {status}
                  </Badge>
                  {d.last_error && (
                    <Text size="xs" c="dimmed">
                      {d.last_error}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{d.last_status_code ?? '—'}</Table.Td>
                <Table.Td style={NOWRAP}>{d.latency_ms === null ? '—' : `${d.latency_ms} ms`}</Table.Td>
                <Table.Td style={NOWRAP}>{when(d.delivered_at ?? d.next_attempt_at)}</Table.Td>
                <Table.Td>{d.attempts}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant="default"
                    aria-label={`Redeliver ${d.type} ${d.event_id}`}
                    loading={redeliver.isPending && redeliver.variables?.deliveryId === d.id}
                    onClick={() => redeliver.mutate({ id: hook.id, deliveryId: d.id })}
                  >
                    Redeliver
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {redeliver.errorMessage && (
        <Text c="red" size="sm" role="alert">
          {redeliver.errorMessage}
        </Text>
      )}
    </Table.ScrollContainer>
  );
}
