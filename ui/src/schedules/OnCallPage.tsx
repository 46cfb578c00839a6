import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useApiQuery } from '../api/hooks';
import { Empty, LoadError, Loading } from '../components/PageStates';
import { formatInstant, viewerZone } from './calendar';
import { ScheduleCards } from './OnCallNow';
import type { MyOnCall, Schedule } from './types';

/** "You": am I on call, where, until when, and my next shift; then every schedule with who is on call now. */
export function OnCallPage() {
  const zone = viewerZone();
  const schedules = useApiQuery<Schedule[]>(['schedules'], '/schedules');
  return (
    <Stack maw={960}>
      <Title order={2}>On call</Title>
      <Text size="sm" c="dimmed">
        Times on your clock ({zone}).
      </Text>
      <You zone={zone} />
      <Title order={3} size="h4">
        Every schedule
      </Title>
      <LoadError what="the schedules" error={schedules.error} />
      {schedules.isPending && <Loading what="the schedules" />}
      {schedules.data?.length === 0 && (
        <Empty>
          No schedules yet.{' '}
          <Anchor component={Link} to="/schedules">
            Create one
          </Anchor>{' '}
          to say who is on call.
        </Empty>
      )}
      {!!schedules.data?.length && <ScheduleCards schedules={schedules.data} zone={zone} />}
    </Stack>
  );
}

function You({ zone }: { zone: string }) {
  const me = useApiQuery<MyOnCall>(['on-call', 'me'], '/on-call/me', { refetchInterval: 60_000 });
  const range = (i: { start: string; end: string }) => `${formatInstant(i.start, zone)} – ${formatInstant(i.end, zone)}`;
  const now = me.data?.schedules.filter((s) => s.current) ?? [];
  // The soonest next shift over every schedule.
  const next = me.data?.schedules
    .flatMap((s) => (s.next ? [{ schedule: s.schedule, shift: s.next }] : []))
    .sort((a, b) => a.shift.start.localeCompare(b.shift.start))[0];
  return (
    <Card withBorder padding="md" aria-label="You">
      <Title order={3} size="h4">
        You
      </Title>
      <LoadError what="your on-call" error={me.error} />
      {me.isPending && <Loading what="your on-call" />}
      {me.data && (
        <Stack gap="xs" mt="xs">
          <Group gap="xs">
            <Badge color={me.data.on_call_now ? 'red' : 'gray'} size="lg">
              {me.data.on_call_now ? 'On call now' : 'Not on call'}
            </Badge>
          </Group>
          {now.map((s) => (
            <Text key={s.schedule.id} size="sm">
              <Anchor component={Link} to={`/schedules/${s.schedule.id}`}>
                {s.schedule.name}
              </Anchor>{' '}
              until {formatInstant(s.current!.end, zone)}
            </Text>
          ))}
          <Text size="sm">
            {next ? (
              <>
                Your next shift:{' '}
                <Anchor component={Link} to={`/schedules/${next.schedule.id}`}>
                  {next.schedule.name}
                </Anchor>
                , {range(next.shift)}
              </>
            ) : (
              'No shift for you in the next 90 days.'
            )}
          </Text>
        </Stack>
      )}
    </Card>
  );
}
