import { Alert, Container, Paper, Stack, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

/** The card every signed-out page uses (log in, sign up, verify, reset, accept an invitation). */
export function AuthCard({
  title,
  error,
  errorTitle,
  onSubmit,
  children,
}: {
  title: string;
  error?: string | null;
  errorTitle?: string;
  onSubmit?: (e: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <Container size={440} my={60}>
      <Title order={1} ta="center">
        Klaxon
      </Title>
      <Paper withBorder shadow="sm" p="lg" mt="lg" radius="md" component="form" onSubmit={onSubmit} aria-label={title}>
        <Stack>
          <Title order={2} size="h3">
            {title}
          </Title>
          {error && (
            <Alert color="red" title={errorTitle ?? 'Something went wrong'}>
              {error}
            </Alert>
          )}
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}

export { fieldOf } from '../api/field-errors';
