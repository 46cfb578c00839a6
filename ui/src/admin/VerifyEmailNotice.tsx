import { Alert, Button, Stack, Text } from '@mantine/core';
import { api } from '../api/client';
import { useAction } from '../api/hooks';

/** An unverified account (403 `email_unverified`): says why, and sends a new verification link. */
export function VerifyEmailNotice({ what }: { what: string }) {
  const resend = useAction(() => api<null>('POST', '/auth/resend-verification'));
  return (
    <Alert color="yellow" title="Verify your email address first">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">You can {what} once your email address is verified. Open the link we emailed you when you signed up, or ask for a new one.</Text>
        <Button size="compact-sm" variant="default" onClick={() => resend.mutate()} loading={resend.isPending} disabled={resend.isSuccess}>
          Resend verification
        </Button>
        {resend.data && (
          <Text size="sm" role="status">
            {resend.data.message}
          </Text>
        )}
        {resend.errorMessage && (
          <Text size="sm" c="red" role="alert">
            {resend.errorMessage}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
