import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { useApiQuery } from '../api/hooks';
import { ConfirmModal } from '../components/ConfirmModal';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { Empty, FormError, LoadError, Loading } from '../components/PageStates';
import { formatSeconds } from './durations';
import { PauseButton, usePauseToggle } from './PauseButton';
import { MonitorForm } from './MonitorForm';
import type { Monitor, Service, UptimeFigures } from './types';
import { UptimeBar } from './UptimeBar';
import { TableHead } from '../components/TableHead';

const INVALIDATE = [['monitors'], ['uptime']];
const STATE_COLORS: Record<Monitor['state'], string> = { PENDING: 'blue', UP: 'green', DOWN: 'red', PAUSED: 'gray' };

/** What the last check found: "200 in 84 ms", or why it failed. */
function lastCheck(m: Monitor): string {
  const c = m.last_check;
  if (!c) return 'not checked yet';
  const what = c.ok ? `${c.status_code ?? 'ok'}${c.latency_ms !== null ? ` in ${c.latency_ms} ms` : ''}` : (c.error ?? `status ${c.status_code}`);
  return `${what}, ${new Date(c.checked_at).toLocaleString()}`;
}

/** HTTP monitors: state, last check, uptime bar; create and edit (in a modal), pause/resume, delete (asked twice). */
export function MonitorsSection({ services, uptime }: { services: Service[]; uptime: Map<string, UptimeFigures> }) {
  const monitors = useApiQuery<Monitor[]>(['monitors'], '/monitors', { refetchInterval: 15_000 });
  // `null`: the create form; a monitor: its edit form; undefined: no form open.
  const [editing, setEditing] = useState<Monitor | null | undefined>(undefined);
  const toggle = usePauseToggle('monitors', INVALIDATE);
  const remove = useConfirmedAction((m: Monitor) => api('DELETE', `/monitors/${m.id}`), { invalidate: INVALIDATE });
  const serviceName = (id: string) => services.find((s) => s.id === id)?.name ?? '—';
  const now = new Date();

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>HTTP monitors</Title>
        <Button onClick={() => setEditing(null)} disabled={services.length === 0}>
          Add monitor
        </Button>
      </Group>
      <LoadError what="monitors" error={monitors.error} />
      <FormError message={toggle.errorMessage} />
      {monitors.isPending && <Loading what="monitors" />}
      {monitors.data?.length === 0 && (
        <Empty>
          {services.length === 0
            ? 'Monitors belong to a service: create one in Set up first.'
            : 'No monitors yet. Use Add monitor to check a URL on an interval: an incident opens when it fails several times in a row.'}
        </Empty>
      )}
      {monitors.data && monitors.data.length > 0 && (
        <Table.ScrollContainer minWidth={860}>
          <Table aria-label="Monitors" verticalSpacing="xs">
            <TableHead columns={['Name', 'State', 'Last check', 'Every', 'Uptime, 30 days']} actions />
            <Table.Tbody>
              {monitors.data.map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td maw={260}>
                    <Text fw={600} size="sm">
                      {m.name}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {m.method} {m.url}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {serviceName(m.service_id)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATE_COLORS[m.state]} variant="light" style={{ minWidth: 'max-content' }}>
                      {m.state}
                    </Badge>
                    {m.consecutive_failures > 0 && m.state !== 'DOWN' && (
                      <Text size="xs" c="orange">
                        {m.consecutive_failures} of {m.failure_threshold} failed
                      </Text>
                    )}
                    {m.open_incident_id && (
                      <Anchor component={Link} to={`/incidents/${m.open_incident_id}`} size="xs" display="block">
                        Open incident
                      </Anchor>
                    )}
                  </Table.Td>
                  <Table.Td maw={240}>
                    <Text size="sm" c={m.last_check && !m.last_check.ok ? 'red' : undefined} style={{ overflowWrap: 'anywhere' }}>
                      {lastCheck(m)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatSeconds(m.interval_seconds)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <UptimeBar name={m.name} figures={uptime.get(m.id)} createdAt={m.created_at} now={now} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap" justify="flex-end">
                      <Button size="compact-sm" variant="default" onClick={() => setEditing(m)} aria-label={`Edit ${m.name}`}>
                        Edit
                      </Button>
                      <PauseButton item={m} toggle={toggle} />
                      <Button size="compact-sm" variant="default" color="red" onClick={() => remove.ask(m)} aria-label={`Delete ${m.name}`}>
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {editing !== undefined && (
        <MonitorForm key={editing?.id ?? 'new'} monitor={editing ?? undefined} services={services} opened onClose={() => setEditing(undefined)} />
      )}
      <ConfirmModal {...remove.modal} title={`Delete monitor ${remove.target?.name ?? ''}?`} confirmLabel="Delete">
        Its checks stop and its recorded checks are deleted. An incident it opened stays for people to resolve.
      </ConfirmModal>
    </Stack>
  );
}
