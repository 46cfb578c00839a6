import { Badge, Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import { Empty, LoadError, Loading } from '../components/PageStates';
import { TableHead } from '../components/TableHead';
import { CONSUMER_LABELS, consumerLabel, DELIVERIES_STATUSES, DELIVERY_STATUS_COLORS, deliveriesPath, statusLabel, type FeedDelivery } from './deliveries';
import { when } from './outgoing-webhooks';

const NOWRAP = { whiteSpace: 'nowrap' } as const;

/**
 * Deliveries (docs/integrations.md, "The delivery queue"): what every consumer of the incident
 * feed (outgoing webhooks, Slack, Microsoft Teams, …) delivered, is still trying, or gave up,
 * newest first, filtered by consumer and status. Reached from the Integrations page.
 */
export function DeliveriesPage() {
  const [consumer, setConsumer] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const pages = useInfiniteQuery({
    queryKey: ['deliveries', consumer, status],
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) => {
      const res = await api<FeedDelivery[]>('GET', deliveriesPath({ consumer, status }, pageParam));
      return { rows: res.data, next: (res.meta as { next_cursor?: string | null } | undefined)?.next_cursor ?? null };
    },
    getNextPageParam: (last) => last.next,
    refetchInterval: 10_000,
  });
  const rows = pages.data?.pages.flatMap((p) => p.rows) ?? [];

  return (
    <Stack gap="lg" maw={1100}>
      <Stack gap={4}>
        <Title order={2}>Deliveries</Title>
        <Text size="sm" c="dimmed">
          Every event Klaxon sends to outgoing webhooks and chat, from one queue: delivered, still being tried (later events of an incident wait behind it), or
          given up.
        </Text>
      </Stack>
      <Group>
        <Select
          label="Integration"
          placeholder="All"
          clearable
          data={Object.entries(CONSUMER_LABELS).map(([value, label]) => ({ value, label }))}
          value={consumer}
          onChange={setConsumer}
        />
        <Select
          label="Status"
          placeholder="All"
          clearable
          data={DELIVERIES_STATUSES.map((s) => ({ value: s, label: s }))}
          value={status}
          onChange={setStatus}
        />
      </Group>
      <LoadError what="the deliveries" error={pages.error} />
      {pages.isPending ? (
        <Loading what="the deliveries" />
      ) : !rows.length ? (
        <Empty>No deliveries here yet.</Empty>
      ) : (
        <Table.ScrollContainer minWidth={800}>
          <Table aria-label="Deliveries" verticalSpacing="xs">
            <TableHead columns={['Integration', 'Event', 'Target', 'Status', 'Code', 'Attempts', { label: 'Time', style: NOWRAP }]} />
            <Table.Tbody>
              {rows.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{consumerLabel(d.consumer)}</Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {d.type}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" ff="monospace">
                      {d.target_id}
                    </Text>
                  </Table.Td>
                  <Table.Td style={NOWRAP}>
                    <Badge color={DELIVERY_STATUS_COLORS[d.status]} variant="light">
                      {statusLabel(d)}
                    </Badge>
                    {d.last_error && (
                      <Text size="xs" c="dimmed">
                        {d.last_error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{d.last_status_code ?? '—'}</Table.Td>
                  <Table.Td>{d.attempts}</Table.Td>
                  <Table.Td style={NOWRAP}>{when(d.delivered_at ?? d.parked_at ?? d.next_attempt_at ?? d.created_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages.hasNextPage && (
        <Button variant="default" onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage} w="fit-content">
          Older deliveries
        </Button>
      )}
    </Stack>
  );
}
