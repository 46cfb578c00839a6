import { Button, Card, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';

/**
 * What the installed app (or an open tab) shows when Klaxon cannot be reached (docs/pwa.md,
 * "Offline"): the app shell opens from the cache, but no data does, so it says so plainly, never
 * shows stale incidents, and offers Retry; it retries by itself when the browser is back online.
 */
export function OfflinePage({ message, onRetry, retrying }: { message: string; onRetry: () => void; retrying: boolean }) {
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);
  return (
    <Center mih="100dvh" p="md">
      <Card withBorder shadow="sm" padding="lg" maw={420} w="100%" role="alert" aria-label="Offline">
        <Stack gap="sm" align="center" ta="center">
          <Text fz={48} lh={1} aria-hidden>
            ⚡︎
          </Text>
          <Title order={2}>Klaxon is out of reach</Title>
          <Text c="dimmed">{message}</Text>
          <Text size="sm" c="dimmed">
            Pages still reach your phone by SMS, call or push: acknowledge there if you are on call.
          </Text>
          <Button onClick={onRetry} loading={retrying} fullWidth>
            Retry
          </Button>
        </Stack>
      </Card>
    </Center>
  );
}
