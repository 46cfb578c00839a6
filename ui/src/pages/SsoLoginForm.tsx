import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';

/** The path that sends a browser to the identity provider of an address's domain (docs/sso.md). */
export const ssoStartPath = (email: string): string => `/auth/sso/start?email=${encodeURIComponent(email.trim())}`;

/**
 * "Log in with SSO": takes the work email only; the server finds the workspace by its domain and
 * sends the browser to that workspace's identity provider (a full page load, not a fetch).
 */
export function SsoLoginForm({
  go = (path: string) => window.location.assign(path),
  initialEmail = '',
}: {
  go?: (path: string) => void;
  /** What was typed in the password form, if anything. */
  initialEmail?: string;
}) {
  const [email, setEmail] = useState(initialEmail);
  function submit(event: FormEvent) {
    event.preventDefault();
    go(ssoStartPath(email));
  }
  return (
    <Stack component="form" onSubmit={submit}>
      <Text size="sm" c="dimmed">
        Your workspace signs you in through your company’s identity provider.
      </Text>
      <TextInput label="Work email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
      <Button type="submit">Continue with SSO</Button>
    </Stack>
  );
}
