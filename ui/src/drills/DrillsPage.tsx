import { ActionIcon, Badge, Button, Group, MultiSelect, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery, useSession } from '../api/hooks';
import { Empty, FormError, LoadError, Loading } from '../components/PageStates';
import { channelLabel, drillChannelOptions, formatLatency, resultLabel, WEEKDAYS, type Drill, type DrillSchedule, type DrillTargetType } from './drills';
import { useChannels } from '../paging/channels';

interface Named {
  id: string;
  name: string;
}

/** Who a drill pages: me, a team or a schedule's on-call, picked from the workspace's teams and schedules. */
function useTargets() {
  const session = useSession();
  const teams = useApiQuery<Named[]>(['teams'], '/teams');
  const schedules = useApiQuery<Named[]>(['schedules'], '/schedules');
  const me = session.data?.user.id;
  const nameOf = (type: DrillTargetType, id: string) =>
    type === 'user' ? (id === me ? 'me' : 'a member') : ((type === 'team' ? teams.data : schedules.data)?.find((t) => t.id === id)?.name ?? type);
  const options = (type: DrillTargetType) =>
    (type === 'team' ? teams.data : type === 'schedule' ? schedules.data : [])?.map((t) => ({ value: t.id, label: t.name })) ?? [];
  return { me, nameOf, options };
}

const TARGET_TYPES = [
  { value: 'user', label: 'Me' },
  { value: 'team', label: 'A team' },
  { value: 'schedule', label: 'Who is on call on a schedule' },
];

/** Target and channels, shared by both forms. */
function TargetFields(props: {
  form: { type: DrillTargetType; id: string | null; channels: string[] };
  set: (f: { type: DrillTargetType; id: string | null; channels: string[] }) => void;
  error: (name: string) => string | undefined;
}) {
  const { options } = useTargets();
  const channels = useChannels();
  const { form, set } = props;
  return (
    <>
      <Select
        label="Who"
        data={TARGET_TYPES}
        value={form.type}
        allowDeselect={false}
        onChange={(v) => set({ ...form, type: (v ?? 'user') as DrillTargetType, id: null })}
        error={props.error('target.type')}
      />
      {form.type !== 'user' && (
        <Select
          label={form.type === 'team' ? 'Team' : 'Schedule'}
          data={options(form.type)}
          value={form.id}
          onChange={(v) => set({ ...form, id: v })}
          error={props.error('target.id') ?? props.error('target')}
          required
        />
      )}
      <MultiSelect
        label="Channels"
        placeholder="As their notification rules page them"
        data={drillChannelOptions(channels)}
        value={form.channels}
        onChange={(v) => set({ ...form, channels: v })}
        error={props.error('channels')}
      />
    </>
  );
}

const bodyOf = (form: { type: DrillTargetType; id: string | null; channels: string[] }, me: string | undefined) => ({
  target: { type: form.type, id: form.type === 'user' ? me : form.id },
  ...(form.channels.length ? { channels: form.channels } : {}),
});

function StartDrill() {
  const { me } = useTargets();
  const [form, setForm] = useState({ type: 'user' as DrillTargetType, id: null as string | null, channels: [] as string[] });
  const start = useAction((body: unknown) => api<Drill>('POST', '/drills', body), { invalidate: [['drills']] });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate(bodyOf(form, me));
  };
  return (
    <Stack component="form" onSubmit={submit} aria-label="Start a drill" gap="xs">
      <Title order={3}>Send a test page</Title>
      <FormError message={start.formError} />
      <Group grow align="start">
        <TargetFields form={form} set={setForm} error={start.fieldError} />
      </Group>
      <Group>
        <Button type="submit" loading={start.isPending}>
          Send test page
        </Button>
        {start.isSuccess && <Text size="sm">Test page sent: results below.</Text>}
      </Group>
    </Stack>
  );
}

function DrillHistory() {
  const { nameOf } = useTargets();
  const channels = useChannels();
  // Results settle within seconds and acknowledgements within minutes: refreshed while the page is open.
  const drills = useApiQuery<Drill[]>(['drills'], '/drills?limit=20', { refetchInterval: 5000 });
  return (
    <Stack gap="xs">
      <Title order={3}>History</Title>
      {drills.isPending && <Loading what="drills" />}
      <LoadError what="drills" error={drills.error} />
      {drills.data?.length === 0 && <Empty>No drill yet.</Empty>}
      {drills.data?.map((d) => (
        <Stack key={d.id} gap={4} aria-label={`Drill of ${d.created_at}`}>
          <Text size="sm" fw={600}>
            {new Date(d.created_at).toLocaleString()}: {nameOf(d.target.type, d.target.id)}
            {d.drill_schedule_id ? ' (recurring)' : ''}
          </Text>
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Person</Table.Th>
                  <Table.Th>Channel</Table.Th>
                  <Table.Th>Result</Table.Th>
                  <Table.Th>Latency</Table.Th>
                  <Table.Th>Why</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.results.map((r, i) => {
                  const shown = resultLabel(r);
                  return (
                    <Table.Tr key={`${r.user_id}-${r.channel}-${i}`} aria-label={`${r.user_name} ${channelLabel(r.channel, channels)}`}>
                      <Table.Td>{r.user_name}</Table.Td>
                      <Table.Td>{channelLabel(r.channel, channels)}</Table.Td>
                      <Table.Td>
                        <Badge color={shown.color} variant="light">
                          {shown.label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{formatLatency(r.latency_ms)}</Table.Td>
                      <Table.Td>
                        <Text size="sm">{r.error ?? ''}</Text>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
                {d.results.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={5}>Nobody to page.</Table.Td>
                  </Table.Tr>
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      ))}
    </Stack>
  );
}

function RecurringDrills() {
  const { me, nameOf } = useTargets();
  const schedules = useApiQuery<DrillSchedule[]>(['drill-schedules'], '/drill-schedules');
  const [form, setForm] = useState({ type: 'schedule' as DrillTargetType, id: null as string | null, channels: [] as string[] });
  const [when, setWhen] = useState({ weekday: 'monday', time: '10:00', time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC' });
  const create = useAction((body: unknown) => api<DrillSchedule>('POST', '/drill-schedules', body), { invalidate: [['drill-schedules']] });
  const remove = useAction((id: string) => api('DELETE', `/drill-schedules/${id}`), { invalidate: [['drill-schedules']] });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ ...bodyOf(form, me), ...when });
  };
  return (
    <Stack gap="xs">
      <Title order={3}>Recurring drills</Title>
      <LoadError what="recurring drills" error={schedules.error} />
      {schedules.data?.map((s) => (
        <Group key={s.id} aria-label={`Recurring drill ${s.cron}`}>
          <Text size="sm">
            {nameOf(s.target.type, s.target.id)}: cron <code>{s.cron}</code> ({s.time_zone})
          </Text>
          <ActionIcon variant="subtle" color="red" aria-label="Delete recurring drill" onClick={() => remove.mutate(s.id)}>
            ×
          </ActionIcon>
        </Group>
      ))}
      <FormError message={remove.errorMessage} />
      <Stack component="form" onSubmit={submit} aria-label="New recurring drill" gap="xs">
        <FormError message={create.formError} />
        <Group grow align="start">
          <TargetFields form={form} set={setForm} error={create.fieldError} />
        </Group>
        <Group grow align="start">
          <Select
            label="Every"
            data={WEEKDAYS.map((d) => ({ value: d, label: d[0].toUpperCase() + d.slice(1) }))}
            value={when.weekday}
            allowDeselect={false}
            onChange={(v) => setWhen({ ...when, weekday: v ?? 'monday' })}
            error={create.fieldError('weekday')}
          />
          <TextInput
            type="time"
            label="At"
            value={when.time}
            onChange={(e) => setWhen({ ...when, time: e.currentTarget.value })}
            error={create.fieldError('time')}
          />
          <TextInput
            label="Time zone"
            value={when.time_zone}
            onChange={(e) => setWhen({ ...when, time_zone: e.currentTarget.value })}
            error={create.fieldError('time_zone')}
          />
        </Group>
        <Group>
          <Button type="submit" variant="light" loading={create.isPending}>
            Schedule drill
          </Button>
        </Group>
      </Stack>
    </Stack>
  );
}

/** Drills: a marked test page through the real channels, its results per person and channel, and recurring drills. */
export function DrillsPage() {
  return (
    <Stack>
      <Title order={2}>Paging drills</Title>
      <Text size="sm" c="dimmed">
        A test page, clearly marked, through the real channels: no incident is opened. Each result says whether the provider took it, how fast, and whether the
        person acknowledged within 10 minutes.
      </Text>
      <StartDrill />
      <DrillHistory />
      <RecurringDrills />
    </Stack>
  );
}
