import { Anchor, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useApiQuery } from '../api/hooks';
import { formatInstant } from './calendar';
import { useMembers } from './people';
import type { OnCall, Person, Schedule } from './types';

/** Who is on call on a schedule now and the next hand-off, read again every minute. */
export function OnCallNow({ scheduleId, zone }: { scheduleId: string; zone: string }) {
  const onCall = useApiQuery<OnCall>(['schedules', scheduleId, 'on-call'], `/schedules/${scheduleId}/on-call`, { refetchInterval: 60_000 });
  const members = useMembers();
  const names = (people: Person[]) => people.map((p) => members.label(p.id, p.email)).join(' & ');
  if (onCall.isPending) return <Loader size="xs" aria-label="Loading who is on call" />;
  if (onCall.error)
    return (
      <Text size="sm" c="red">
        Could not load who is on call: {onCall.error.message}
      </Text>
    );
  const { users, next_handoff: next } = onCall.data;
  return (
    <Stack gap={2}>
      <Text size="sm">
        On call now:{' '}
        {users.length ? (
          <Text span fw={600}>
            {names(users)}
          </Text>
        ) : (
          <Text span fw={600} c="red">
            nobody
          </Text>
        )}
      </Text>
      <Text size="sm" c="dimmed">
        {next ? (
          <>
            Next hand-off {formatInstant(next.at, zone)} to {next.users.length ? names(next.users) : 'nobody'}
          </>
        ) : (
          'No hand-off in the next 90 days'
        )}
      </Text>
    </Stack>
  );
}

/** The schedules as cards: name (a link to the calendar), zone, who is on call now and the next hand-off (times in `zone`). */
export function ScheduleCards({ schedules, zone }: { schedules: readonly Schedule[]; zone: string }) {
  return (
    <Stack gap="xs" role="list" aria-label="Schedules">
      {schedules.map((s) => (
        <Card key={s.id} withBorder padding="sm" role="listitem" aria-label={s.name}>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Anchor component={Link} to={`/schedules/${s.id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
              {s.name}
            </Anchor>
            <Text size="xs" c="dimmed">
              {s.time_zone} · {s.layers.length} layer(s)
            </Text>
          </Group>
          <OnCallNow scheduleId={s.id} zone={zone} />
        </Card>
      ))}
    </Stack>
  );
}
