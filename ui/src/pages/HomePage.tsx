import { Button, Container, Group, Loader, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { api, ApiError, setCsrfToken } from '../api/client';

interface SessionView {
  user: { email: string; name: string | null };
  organization: { name: string };
  role: string;
  csrf_token: string;
}

/** The signed-in home; sends a visitor without a session to the login page. */
export function HomePage() {
  const session = useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      const { data } = await api<SessionView>('GET', '/auth/session');
      setCsrfToken(data.csrf_token);
      return data;
    },
    retry: false,
  });
  if (session.isPending) return <Loader aria-label="Loading" m="xl" />;
  if (session.error instanceof ApiError && session.error.status === 401) return <Navigate to="/login" replace />;
  if (session.error) return <Text c="red" m="xl">{session.error.message}</Text>;
  return (
    <Container my="xl">
      <Group justify="space-between">
        <Title order={1}>{session.data.organization.name}</Title>
        <Button variant="subtle" onClick={async () => { await api('POST', '/auth/logout'); await session.refetch(); }}>Log out</Button>
      </Group>
      <Text mt="md">Signed in as {session.data.user.email} ({session.data.role}).</Text>
    </Container>
  );
}
