import { Alert, Stack, Text, Title } from '@mantine/core';
import { useApiQuery, useSession } from '../api/hooks';
import { Loading, LoadError } from '../components/PageStates';
import type { Readiness } from './readiness';
import { ReadinessList } from './ReadinessList';

/** Readiness: what would fail a page in the next 14 days, each with its fix. */
export function ReadinessPage() {
  const session = useSession();
  const readiness = useApiQuery<Readiness>(['readiness'], '/readiness');
  return (
    <Stack>
      <Title order={2}>Readiness</Title>
      <Text size="sm" c="dimmed">
        The next 14 days: on-call people who cannot be reached or are paged after more than 5 minutes, stretches with nobody on call, and escalation steps that
        would page nobody.
      </Text>
      {readiness.isPending && <Loading what="readiness" />}
      <LoadError what="readiness" error={readiness.error} />
      {readiness.data && readiness.data.gaps.length === 0 && (
        <Alert color="green" title="Ready">
          Every on-call shift and every escalation step reaches someone in time for the next 14 days.
        </Alert>
      )}
      {!!readiness.data?.gaps.length && <ReadinessList gaps={readiness.data.gaps} me={session.data?.user.id} />}
    </Stack>
  );
}
