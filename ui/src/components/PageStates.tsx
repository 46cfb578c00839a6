import { Alert, Loader, Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** What a page shows while its data loads: a spinner with an accessible name. */
export function Loading({ what }: { what: string }) {
  return <Loader aria-label={`Loading ${what}`} m="md" />;
}

/** A query that failed: the server's message, titled with what could not be loaded. */
export function LoadError({ what, error }: { what: string; error: Error | null | undefined }) {
  if (!error) return null;
  return (
    <Alert color="red" title={`Could not load ${what}`}>
      {error.message}
    </Alert>
  );
}

/** An empty list: says so, and what to do next. */
export function Empty({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text c="dimmed" size="sm">
        {children}
      </Text>
    </Paper>
  );
}

/** A change the server refused without naming a field. */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <Alert color="red" title="Not done" role="alert">
      {message}
    </Alert>
  );
}
