import { Button, Card, Group, Select, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import { useAction } from '../api/hooks';
import { FormError } from '../components/PageStates';
import { browserTimeZone } from '../time/format';
import { PROFILE_KEY, useProfile, type Profile } from '../time/useTimeZone';

/** UTC, then the IANA zones this browser knows (its list leaves UTC out; the server checks the name again). */
const zones = (): string[] => [
  'UTC',
  ...(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [browserTimeZone()]).filter((z) => z !== 'UTC'),
];

/**
 * My profile's time zone: the zone the dashboard shows times in, and reports count days in.
 * Until one is set, the browser's zone is used (reports use UTC: the server cannot know the browser's).
 */
export function TimeZoneCard() {
  const profile = useProfile();
  const client = useQueryClient();
  const [picked, setPicked] = useState<string | null>(null);
  const save = useAction((zone: string | null) => api<Profile>('PUT', '/profile', { time_zone: zone }), {
    onSuccess: ({ data }) => {
      client.setQueryData(PROFILE_KEY, data);
      setPicked(null);
    },
  });
  const stored = profile.data?.time_zone ?? null;
  const shown = picked ?? stored ?? browserTimeZone();
  return (
    <Card withBorder>
      <Title order={3} size="h4">
        Time zone
      </Title>
      <Text size="sm" c="dimmed">
        {stored
          ? `Times are shown in ${stored}, and reports count days in it.`
          : `Not set: times are shown in this browser’s zone (${browserTimeZone()}); reports count days in UTC.`}
      </Text>
      <FormError message={save.formError} />
      <Group align="end" mt="xs" wrap="wrap">
        <Select
          label="Time zone"
          data={zones()}
          value={shown}
          onChange={setPicked}
          searchable
          allowDeselect={false}
          error={save.fieldError('time_zone')}
          w={260}
          maw="100%"
          disabled={profile.isPending}
        />
        <Button onClick={() => save.mutate(shown)} loading={save.isPending && save.variables !== null} disabled={profile.isPending || shown === stored}>
          Save time zone
        </Button>
        {stored && (
          <Button variant="subtle" onClick={() => save.mutate(null)} loading={save.isPending && save.variables === null}>
            Use this browser’s zone
          </Button>
        )}
      </Group>
    </Card>
  );
}
