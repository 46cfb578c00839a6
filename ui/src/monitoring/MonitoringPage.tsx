import { Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useApiQuery } from '../api/hooks';
import { LoadError, Loading } from '../components/PageStates';
import { HeartbeatsSection } from './HeartbeatsSection';
import { MonitorsSection } from './MonitorsSection';
import type { Service, UptimeFigures, UptimeView } from './types';

/** Heartbeats and HTTP monitors, each with its uptime over the last 30 days. */
export function MonitoringPage() {
  const services = useApiQuery<Service[]>(['services'], '/services');
  const uptime = useApiQuery<UptimeView>(['uptime'], '/uptime', { refetchInterval: 60_000 });
  // One map of availability by id: heartbeat and monitor ids are UUIDs, so they never collide.
  const availability = useMemo(
    () =>
      new Map<string, UptimeFigures>(
        [...(uptime.data?.monitors ?? []), ...(uptime.data?.heartbeats ?? [])].map((u) => [u.id, { availability: u.availability, daily: u.daily }]),
      ),
    [uptime.data],
  );
  return (
    <Stack gap="xl" maw={1200}>
      <Stack gap={4}>
        <Title order={2}>Heartbeats and monitors</Title>
        <Text size="sm" c="dimmed">
          What checks in and what is checked; each opens an incident on its service when it goes quiet or fails.
        </Text>
      </Stack>
      <LoadError what="services" error={services.error} />
      <LoadError what="uptime" error={uptime.error} />
      {services.isPending ? (
        <Loading what="services" />
      ) : (
        <>
          <HeartbeatsSection services={services.data ?? []} uptime={availability} />
          <MonitorsSection services={services.data ?? []} uptime={availability} />
        </>
      )}
    </Stack>
  );
}
