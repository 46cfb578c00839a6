import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { api } from '../api/client';
import { useApiQuery } from '../api/hooks';
import { ConfirmModal } from '../components/ConfirmModal';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { Empty, FormError, LoadError, Loading } from '../components/PageStates';
import { formatSeconds } from './durations';
import { PauseButton, usePauseToggle } from './PauseButton';
import { HeartbeatForm } from './HeartbeatForm';
import { HEARTBEAT_STATE_LABELS, heartbeatState } from './heartbeats';
import type { Heartbeat, Service, UptimeFigures } from './types';
import { UptimeBar } from './UptimeBar';
import { TableHead } from '../components/TableHead';

const INVALIDATE = [['heartbeats'], ['uptime']];

/** Heartbeats: their state and last ping, uptime bar, pause/resume, delete (asked twice), and the create form. */
export function HeartbeatsSection({ services, uptime }: { services: Service[]; uptime: Map<string, UptimeFigures> }) {
  const heartbeats = useApiQuery<Heartbeat[]>(['heartbeats'], '/heartbeats', { refetchInterval: 30_000 });
  const toggle = usePauseToggle('heartbeats', INVALIDATE);
  const remove = useConfirmedAction((hb: Heartbeat) => api('DELETE', `/heartbeats/${hb.id}`), { invalidate: INVALIDATE });
  const serviceName = (id: string) => services.find((s) => s.id === id)?.name ?? '—';
  const now = new Date();

  return (
    <Stack gap="sm">
      <Title order={3}>Heartbeats</Title>
      <LoadError what="heartbeats" error={heartbeats.error} />
      <FormError message={toggle.errorMessage} />
      {heartbeats.isPending && <Loading what="heartbeats" />}
      {heartbeats.data?.length === 0 && (
        <Empty>No heartbeats yet. Create one below for each cron job or backup that should check in: Klaxon opens an incident when a check-in is missed.</Empty>
      )}
      {heartbeats.data && heartbeats.data.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table aria-label="Heartbeats" verticalSpacing="xs">
            <TableHead columns={['Name', 'Status', 'Last ping', 'Every', 'Uptime, 30 days']} actions />
            <Table.Tbody>
              {heartbeats.data.map((hb) => {
                const state = HEARTBEAT_STATE_LABELS[heartbeatState(hb, now)];
                return (
                  <Table.Tr key={hb.id}>
                    <Table.Td>
                      <Text fw={600} size="sm">
                        {hb.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {serviceName(hb.service_id)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={state.color} variant="light" style={{ minWidth: 'max-content' }}>
                        {state.label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{hb.last_ping_at ? new Date(hb.last_ping_at).toLocaleString() : 'never'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {formatSeconds(hb.period_seconds)}, grace {formatSeconds(hb.grace_seconds) || '0 s'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <UptimeBar name={hb.name} figures={uptime.get(hb.id)} createdAt={hb.created_at} now={now} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap" justify="flex-end">
                        <PauseButton item={hb} toggle={toggle} />
                        <Button size="compact-sm" variant="default" color="red" onClick={() => remove.ask(hb)} aria-label={`Delete ${hb.name}`}>
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {services.length === 0 ? <Empty>Heartbeats belong to a service: create one in Set up first.</Empty> : <HeartbeatForm services={services} />}
      <ConfirmModal {...remove.modal} title={`Delete heartbeat ${remove.target?.name ?? ''}?`} confirmLabel="Delete">
        Its ping URL will answer 404 and nothing will watch it any more. An open missed-check-in incident stays for people to resolve.
      </ConfirmModal>
    </Stack>
  );
}
