import { Anchor, Button, Card, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api/client';
import { useAction, useApiQuery, useSession } from '../api/hooks';
import type { Readiness } from '../readiness/readiness';
import { ReadinessWarning } from '../readiness/ReadinessList';
import { ConfirmModal } from '../components/ConfirmModal';
import { LoadError, Loading } from '../components/PageStates';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { calendarDays, localDate, viewerZone } from './calendar';
import { draftOfLayer, scheduleBody, type ScheduleDraft } from './layerForm';
import { OnCallNow } from './OnCallNow';
import { Overrides } from './Overrides';
import { useCanManageSchedules, useMembers } from './people';
import { ScheduleCalendar } from './ScheduleCalendar';
import { ScheduleForm } from './ScheduleForm';
import type { Schedule, ScheduleOverride, Shift } from './types';

type ZoneChoice = 'viewer' | 'schedule' | 'utc';

/** The schedule's gaps in the next 14 days: fetched again after each save (saves invalidate ['readiness']). */
function ScheduleReadiness({ scheduleId }: { scheduleId: string }) {
  const session = useSession();
  const readiness = useApiQuery<Readiness>(['readiness', 'schedule', scheduleId], `/readiness?schedule_id=${scheduleId}`);
  return <ReadinessWarning gaps={readiness.data?.gaps} what="This schedule" me={session.data?.user.id} />;
}

/** One schedule: who is on call now, a two-week calendar in a chosen zone, its overrides, and (for managers) its layers to edit. */
export function SchedulePage() {
  const { id = '' } = useParams();
  const schedule = useApiQuery<Schedule>(['schedules', id], `/schedules/${id}`);
  const canManage = useCanManageSchedules();
  const viewer = viewerZone();
  if (schedule.isPending) return <Loading what="the schedule" />;
  if (schedule.error)
    return (
      <Stack>
        <LoadError what="the schedule" error={schedule.error} />
        <Anchor component={Link} to="/schedules">
          All schedules
        </Anchor>
      </Stack>
    );
  const s = schedule.data;
  return (
    <Stack maw={960}>
      <Anchor component={Link} to="/schedules" size="sm">
        ← All schedules
      </Anchor>
      <Title order={2} style={{ overflowWrap: 'anywhere' }}>
        {s.name}
      </Title>
      <Text size="sm" c="dimmed">
        Hand-offs on {s.time_zone} time · {s.layers.length} layer(s)
      </Text>
      <Card withBorder padding="sm">
        <OnCallNow scheduleId={s.id} zone={viewer} />
      </Card>
      <ScheduleReadiness scheduleId={s.id} />
      <TwoWeeks schedule={s} viewer={viewer} />
      <Overrides scheduleId={s.id} zone={viewer} canManage={canManage} />
      {canManage ? (
        <EditSchedule schedule={s} />
      ) : (
        <Text size="sm" c="dimmed">
          Only Billing Owners and Account Admins change schedules.
        </Text>
      )}
    </Stack>
  );
}

/** The next 14 local days of the chosen zone, and who is on call in each. */
function TwoWeeks({ schedule, viewer }: { schedule: Schedule; viewer: string }) {
  const [choice, setChoice] = useState<ZoneChoice>('viewer');
  const zone = choice === 'viewer' ? viewer : choice === 'schedule' ? schedule.time_zone : 'UTC';
  // "Now" is fixed when the page opens (or the zone changes), so the query key stays put.
  const days = useMemo(() => calendarDays(new Date(), zone, 14), [zone]);
  const from = days[0].start.toISOString();
  const to = days[days.length - 1].end.toISOString();
  const query = new URLSearchParams({ from, to });
  const shifts = useApiQuery<Shift[]>(['schedules', schedule.id, 'shifts', from, to], `/schedules/${schedule.id}/shifts?${query}`);
  const overrides = useApiQuery<ScheduleOverride[]>(['schedules', schedule.id, 'overrides'], `/schedules/${schedule.id}/overrides`);
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={3} size="h4">
          Next two weeks
        </Title>
        <SegmentedControl
          aria-label="Show times in"
          value={choice}
          onChange={(v) => setChoice(v as ZoneChoice)}
          data={[
            { value: 'viewer', label: `Your time (${viewer})` },
            { value: 'schedule', label: `Schedule (${schedule.time_zone})` },
            { value: 'utc', label: 'UTC' },
          ]}
          style={{ maxWidth: '100%', overflowX: 'auto' }}
        />
      </Group>
      <LoadError what="the shifts" error={shifts.error} />
      {shifts.isPending ? (
        <Loading what="the shifts" />
      ) : (
        shifts.data && <ScheduleCalendar shifts={shifts.data} days={days} zone={zone} overrides={overrides.data ?? []} />
      )}
    </Stack>
  );
}

/** Name, zone and layers (PUT, all three), and deleting the schedule after confirming (409 while a policy targets it). */
function EditSchedule({ schedule }: { schedule: Schedule }) {
  const members = useMembers();
  const navigate = useNavigate();
  const save = useAction((draft: ScheduleDraft) => api('PUT', `/schedules/${schedule.id}`, scheduleBody(draft)), {
    invalidate: [['schedules'], ['on-call'], ['readiness']],
  });
  const remove = useConfirmedAction((s: Schedule) => api('DELETE', `/schedules/${s.id}`), {
    invalidate: [['schedules'], ['on-call'], ['readiness']],
    onSuccess: () => navigate('/schedules'),
  });
  const initial: ScheduleDraft = { name: schedule.name, timeZone: schedule.time_zone, layers: schedule.layers.map(draftOfLayer) };
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        Rotation
      </Title>
      {members.isPending ? (
        <Loading what="the members" />
      ) : (
        <ScheduleForm
          key={JSON.stringify(initial)}
          label="Edit schedule"
          initial={initial}
          members={members.data ?? []}
          today={localDate(new Date(), schedule.time_zone)}
          submitLabel="Save changes"
          pending={save.isPending}
          error={save.errorMessage}
          onSubmit={(d) => save.mutate(d)}
        />
      )}
      {save.isSuccess && (
        <Text size="sm" c="green" role="status">
          Saved.
        </Text>
      )}
      <Group>
        <Button variant="outline" color="red" onClick={() => remove.ask(schedule)}>
          Delete schedule
        </Button>
      </Group>
      <ConfirmModal {...remove.modal} title={`Delete ${schedule.name}?`} confirmLabel={`Delete ${schedule.name}`} cancelLabel="Keep it">
        The schedule and its overrides go. A schedule an escalation policy pages cannot be deleted: change the policy first.
      </ConfirmModal>
    </Stack>
  );
}
