import { Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import { ConfirmModal } from '../components/ConfirmModal';
import { Empty, FormError, LoadError, Loading } from '../components/PageStates';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { formatInstant, isoToLocalInput, localInputToIso } from './calendar';
import { personLabel } from '../components/people';
import { useMembers } from './people';
import type { ScheduleOverride } from './types';
import { TableHead } from '../components/TableHead';

const HOUR_MS = 3_600_000;

/** A schedule's current and future overrides; managers add them (times on the viewer's clock) and delete them after confirming. */
export function Overrides({ scheduleId, zone, canManage }: { scheduleId: string; zone: string; canManage: boolean }) {
  const overrides = useApiQuery<ScheduleOverride[]>(['schedules', scheduleId, 'overrides'], `/schedules/${scheduleId}/overrides`);
  const members = useMembers();
  const who = (o: ScheduleOverride) => members.label(o.user_id, o.email);
  const remove = useConfirmedAction((o: ScheduleOverride) => api('DELETE', `/schedules/${scheduleId}/overrides/${o.id}`), {
    invalidate: [['schedules', scheduleId], ['on-call'], ['readiness']],
  });
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        Overrides
      </Title>
      <Text size="sm" c="dimmed">
        Someone on call for a while instead of the rotation. Times on your clock ({zone}).
      </Text>
      <LoadError what="the overrides" error={overrides.error} />
      {overrides.isPending && <Loading what="the overrides" />}
      {overrides.data?.length === 0 && (
        <Empty>
          No overrides coming up.{' '}
          {canManage ? 'Add one below when someone swaps a shift or covers for a colleague.' : 'A Billing Owner or Account Admin can add one.'}
        </Empty>
      )}
      {!!overrides.data?.length && (
        <Table.ScrollContainer minWidth={420}>
          <Table aria-label="Overrides">
            <TableHead columns={['Who', 'From', 'Until']} actions={canManage} />
            <Table.Tbody>
              {overrides.data.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td>{who(o)}</Table.Td>
                  <Table.Td>{formatInstant(o.from, zone)}</Table.Td>
                  <Table.Td>{formatInstant(o.to, zone)}</Table.Td>
                  {canManage && (
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        aria-label={`Delete the override for ${who(o)} from ${formatInstant(o.from, zone)}`}
                        onClick={() => remove.ask(o)}
                      >
                        Delete
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {canManage && <NewOverride scheduleId={scheduleId} zone={zone} members={members.data ?? []} />}
      <ConfirmModal {...remove.modal} title="Delete this override?" confirmLabel="Delete override" cancelLabel="Keep it">
        {remove.target &&
          `${who(remove.target)} will no longer be on call from ${formatInstant(remove.target.from, zone)} until ${formatInstant(remove.target.to, zone)}; the rotation decides again.`}
      </ConfirmModal>
    </Stack>
  );
}

function NewOverride({ scheduleId, zone, members }: { scheduleId: string; zone: string; members: Array<{ id: string; email: string; name: string | null }> }) {
  const start = () => {
    const now = new Date();
    now.setMinutes(0, 0, 0);
    return now.getTime() + HOUR_MS;
  };
  const blank = () => ({
    userId: null as string | null,
    from: isoToLocalInput(new Date(start()), zone),
    to: isoToLocalInput(new Date(start() + 8 * HOUR_MS), zone),
  });
  const [form, setForm] = useState(blank);
  const [local, setLocal] = useState<{ from?: string; to?: string }>({});
  const add = useAction((body: { user_id: string | undefined; from: string; to: string }) => api('POST', `/schedules/${scheduleId}/overrides`, body), {
    invalidate: [['schedules', scheduleId], ['on-call'], ['readiness']],
    onSuccess: () => setForm(blank()),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const from = localInputToIso(form.from, zone);
    const to = localInputToIso(form.to, zone);
    const bad = 'pick a date and time that exists on your clock';
    setLocal({ from: from ? undefined : bad, to: to ? undefined : bad });
    if (!from || !to) return;
    // user_id undefined is left out of the JSON: the server then names the missing person.
    add.mutate({ user_id: form.userId ?? undefined, from, to });
  };
  return (
    <Stack component="form" onSubmit={submit} aria-label="New override" gap="xs">
      <FormError message={add.formError} />
      <Group wrap="wrap" align="start" grow>
        <Select
          label="Person"
          placeholder="Who covers"
          required
          data={members.map((m) => ({ value: m.id, label: personLabel(m) }))}
          value={form.userId}
          onChange={(v) => setForm({ ...form, userId: v })}
          error={add.fieldError('user_id') ?? add.fieldError('email')}
          miw={180}
        />
        <TextInput
          type="datetime-local"
          label="From"
          required
          value={form.from}
          onChange={(e) => setForm({ ...form, from: e.currentTarget.value })}
          error={local.from ?? add.fieldError('from')}
          miw={180}
        />
        <TextInput
          type="datetime-local"
          label="Until"
          required
          value={form.to}
          onChange={(e) => setForm({ ...form, to: e.currentTarget.value })}
          error={local.to ?? add.fieldError('to')}
          miw={180}
        />
      </Group>
      <Group>
        <Button type="submit" loading={add.isPending}>
          Add override
        </Button>
      </Group>
    </Stack>
  );
}
