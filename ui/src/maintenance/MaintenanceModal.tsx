import { Badge, Button, Group, Modal, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import { FormError } from '../components/PageStates';
import { TableHead } from '../components/TableHead';
import { isoFromLocal, MAINTENANCE_KEY, type MaintenanceWindow } from './maintenance';

const STATE_COLORS: Record<MaintenanceWindow['state'], string> = { active: 'yellow', scheduled: 'blue', ended: 'gray' };

/** A service's maintenance windows: start one now for N minutes or schedule one; end an active one early; delete. */
export function MaintenanceModal({ service, onClose }: { service: { id: string; name: string } | null; onClose: () => void }) {
  return (
    <Modal opened={service !== null} onClose={onClose} title={service ? `Maintenance of ${service.name}` : 'Maintenance'} centered size="lg">
      {service && <MaintenanceForm serviceId={service.id} />}
    </Modal>
  );
}

function MaintenanceForm({ serviceId }: { serviceId: string }) {
  const windows = useApiQuery<MaintenanceWindow[]>([...MAINTENANCE_KEY, 'service', serviceId], `/maintenance-windows?service_id=${serviceId}&limit=20`);
  const [form, setForm] = useState({ reason: '', minutes: 60 as number | string, starts: '', ends: '' });
  const invalidate = [[...MAINTENANCE_KEY]];
  const create = useAction(
    (span: { minutes: number } | { starts_at?: string; ends_at?: string }) =>
      api('POST', '/maintenance-windows', { service_ids: [serviceId], reason: form.reason, ...span }),
    { invalidate, onSuccess: () => setForm({ ...form, reason: '' }) },
  );
  const end = useAction((id: string) => api('POST', `/maintenance-windows/${id}/end`), { invalidate });
  const remove = useAction((id: string) => api('DELETE', `/maintenance-windows/${id}`), { invalidate });
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        During a window, alerts still open and attach incidents, but nobody is paged; when it ends, incidents still triggered page as if they had just opened.
      </Text>
      <FormError message={create.formError ?? end.errorMessage ?? remove.errorMessage} />
      <TextInput
        label="Reason"
        value={form.reason}
        onChange={(e) => setForm({ ...form, reason: e.currentTarget.value })}
        error={create.fieldError('reason') ?? create.fieldError('service_ids')}
      />
      <Group align="end" wrap="wrap">
        <NumberInput
          label="Minutes"
          min={1}
          max={10080}
          value={form.minutes}
          onChange={(v) => setForm({ ...form, minutes: v })}
          error={create.fieldError('minutes')}
        />
        <Button onClick={() => create.mutate({ minutes: Number(form.minutes) })} loading={create.isPending}>
          Start now
        </Button>
      </Group>
      <Group align="end" wrap="wrap">
        <TextInput
          type="datetime-local"
          label="Starts"
          value={form.starts}
          onChange={(e) => setForm({ ...form, starts: e.currentTarget.value })}
          error={create.fieldError('starts_at')}
        />
        <TextInput
          type="datetime-local"
          label="Ends"
          value={form.ends}
          onChange={(e) => setForm({ ...form, ends: e.currentTarget.value })}
          error={create.fieldError('ends_at')}
        />
        <Button variant="default" onClick={() => create.mutate({ starts_at: isoFromLocal(form.starts), ends_at: isoFromLocal(form.ends) })}>
          Schedule
        </Button>
      </Group>
      <Title order={4}>Windows</Title>
      {windows.data?.length === 0 && <Text c="dimmed">No window for this service.</Text>}
      {!!windows.data?.length && (
        <Table aria-label="Maintenance windows">
          <TableHead columns={['Reason', 'From', 'Until', 'State']} actions />
          <Table.Tbody>
            {windows.data.map((w) => (
              <Table.Tr key={w.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{w.reason}</Table.Td>
                <Table.Td>{new Date(w.starts_at).toLocaleString()}</Table.Td>
                <Table.Td>{new Date(w.ends_at).toLocaleString()}</Table.Td>
                <Table.Td>
                  <Badge color={STATE_COLORS[w.state]}>{w.state}</Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {w.state === 'active' && (
                      <Button size="compact-sm" aria-label={`End “${w.reason}” now`} onClick={() => end.mutate(w.id)}>
                        End now
                      </Button>
                    )}
                    <Button size="compact-sm" variant="default" color="red" aria-label={`Delete “${w.reason}”`} onClick={() => remove.mutate(w.id)}>
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
