import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';

/** Klaxon's single sign-on start page for an address (docs/sso.md): its "Continue with SSO" form goes on to the identity provider. */
export const ssoStartPath = (email: string): string => `/auth/sso/start?email=${encodeURIComponent(email.trim())}`;

/**
 * "Log in with SSO": takes the work email only and opens Klaxon's start page for it (a full page
 * load, not a fetch); that page's form, posted from Klaxon's own origin with its nonce, is the only
 * way on to the identity provider of the domain's workspace (a link from another site cannot start
 * a sign-in: login CSRF).
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
        Your workspace signs you in through your company’s identity provider: the next page takes you there.
      </Text>
      <TextInput label="Work email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
      <Button type="submit">Continue with SSO</Button>
    </Stack>
  );
}
