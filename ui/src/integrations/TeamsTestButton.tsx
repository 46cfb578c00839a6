import { Alert, Button, Stack } from '@mantine/core';
import { api } from '../api/client';
import { useAction } from '../api/hooks';
import { teamsTestText, type TeamsTestResult } from './chat';

/**
 * "Send test card": posts a test card to the service's saved Teams Workflows URL
 * (`POST /api/services/{id}/chat/teams/test`) and says whether Teams took it. Disabled until a
 * URL is saved: it tests what is stored, not what is typed.
 */
export function TeamsTestButton({ serviceId, disabled }: { serviceId: string; disabled?: boolean }) {
  const test = useAction(async () => (await api<TeamsTestResult>('POST', `/services/${serviceId}/chat/teams/test`)).data);
  return (
    <Stack gap={6}>
      <Button variant="default" size="compact-sm" w="fit-content" disabled={disabled} loading={test.isPending} onClick={() => test.mutate()}>
        Send test card
      </Button>
      {test.data && (
        <Alert color={test.data.delivered ? 'green' : 'red'} role="status" p="xs">
          {teamsTestText(test.data)}
        </Alert>
      )}
      {test.errorMessage && (
        <Alert color="red" role="alert" p="xs">
          {test.errorMessage}
        </Alert>
      )}
    </Stack>
  );
}
