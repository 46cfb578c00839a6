import { Stack, Text, Title } from '@mantine/core';
import { useSession } from '../api/hooks';
import { LoadError, Loading } from '../components/PageStates';
import { ApiKeysCard } from './ApiKeysCard';
import { TokensCard } from './TokensCard';
import { VerifyEmailNotice } from './VerifyEmailNotice';

/** API tokens and keys: customer API tokens (admins) and API keys (everyone, their own). */
export function CredentialsPage() {
  const session = useSession();
  return (
    <Stack maw={960}>
      <Title order={2}>API tokens and keys</Title>
      <Text size="sm" c="dimmed">
        Creating a token or a key asks you to confirm it is you. Its secret is shown once, when it is created.
      </Text>
      {session.isPending ? (
        <Loading what="your session" />
      ) : session.error ? (
        <LoadError what="your session" error={session.error} />
      ) : (
        <>
          {!session.data.user.verified && <VerifyEmailNotice what="create API tokens and keys" />}
          <TokensCard session={session.data} />
          <ApiKeysCard session={session.data} />
        </>
      )}
    </Stack>
  );
}
