import { Alert, Anchor, Badge, Card, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { api } from '../api/client';

interface InboxEntry {
  id: string;
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  created_at: string;
}

/** Text with its URLs as links: the verification and reset links in emails. */
function Linked({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <Anchor key={i} href={part}>
            {part}
          </Anchor>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </Text>
  );
}

/** `/dev/inbox`: what Klaxon would have emailed, texted or pushed, in development (klaxon start on localhost). */
export function DevInboxPage() {
  const inbox = useQuery({
    queryKey: ['dev-inbox'],
    queryFn: async () => (await api<InboxEntry[]>('GET', '/dev/inbox?limit=50')).data,
    refetchInterval: 5_000,
    retry: false,
  });
  return (
    <Container my="xl">
      <Title order={1}>Dev inbox</Title>
      <Text c="dimmed" mb="md">
        Messages of channels without provider credentials land here while Klaxon runs on your machine.
      </Text>
      {inbox.isPending && <Loader aria-label="Loading the inbox" />}
      {inbox.error && (
        <Alert color="gray" title="No dev inbox here">
          It is shown only by `npm start` on localhost.
        </Alert>
      )}
      <Stack>
        {inbox.data?.length === 0 && <Text c="dimmed">Nothing yet.</Text>}
        {inbox.data?.map((m) => (
          <Card key={m.id} withBorder padding="sm" aria-label={`${m.channel} to ${m.to}`}>
            <Group gap="xs" wrap="wrap">
              <Badge variant="light">{m.channel}</Badge>
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {m.to}
              </Text>
              <Text size="xs" c="dimmed">
                {new Date(m.created_at).toLocaleString()}
              </Text>
            </Group>
            {m.subject && (
              <Text fw={600} mt={4}>
                {m.subject}
              </Text>
            )}
            <Linked text={m.body} />
          </Card>
        ))}
      </Stack>
    </Container>
  );
}
