import { Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import { Empty, LoadError, Loading } from '../components/PageStates';
import { localDate, viewerZone } from './calendar';
import { newLayer, scheduleBody, type ScheduleDraft } from './layerForm';
import { ScheduleCards } from './OnCallNow';
import { useCanManageSchedules, useMembers } from './people';
import { ScheduleForm } from './ScheduleForm';
import type { Schedule } from './types';

/** The workspace's schedules with who is on call now and the next hand-off; managers create new ones below. */
export function SchedulesPage() {
  const schedules = useApiQuery<Schedule[]>(['schedules'], '/schedules');
  const canManage = useCanManageSchedules();
  const zone = viewerZone();
  return (
    <Stack maw={960}>
      <Title order={2}>Schedules</Title>
      <Text size="sm" c="dimmed">
        Times on your clock ({zone}).
      </Text>
      <LoadError what="the schedules" error={schedules.error} />
      {schedules.isPending && <Loading what="the schedules" />}
      {schedules.data?.length === 0 && (
        <Empty>
          {canManage
            ? 'No schedules yet. Create one below: the people who take turns, how often they hand over, and when.'
            : 'No schedules yet. A Billing Owner or Account Admin can create one.'}
        </Empty>
      )}
      {!!schedules.data?.length && <ScheduleCards schedules={schedules.data} zone={zone} />}
      {canManage && <NewSchedule zone={zone} />}
    </Stack>
  );
}

function NewSchedule({ zone }: { zone: string }) {
  const members = useMembers();
  const navigate = useNavigate();
  const create = useAction((draft: ScheduleDraft) => api<Schedule>('POST', '/schedules', scheduleBody(draft)), {
    invalidate: [['schedules'], ['on-call']],
    onSuccess: (res) => navigate(`/schedules/${res.data.id}`),
  });
  const today = localDate(new Date(), zone);
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        New schedule
      </Title>
      {members.isPending ? (
        <Loading what="the members" />
      ) : (
        <ScheduleForm
          label="New schedule"
          initial={{ name: '', timeZone: zone, layers: [newLayer(today)] }}
          members={members.data ?? []}
          today={today}
          submitLabel="Create schedule"
          pending={create.isPending}
          error={create.errorMessage}
          onSubmit={(d) => create.mutate(d)}
        />
      )}
    </Stack>
  );
}
