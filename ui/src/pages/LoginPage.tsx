import { Alert, Anchor, Button, Container, Group, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, ApiError, setCsrfToken } from '../api/client';
import { SsoLoginForm } from './SsoLoginForm';

interface SessionData {
  csrf_token: string;
}

/** Log in; asks for the authenticator code when the account has two-factor on. */
export function LoginPage() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [searchParams, setSearchParams] = useSearchParams();
  const [refusedForSso, setRefusedForSso] = useState(false);
  const withSso = refusedForSso || searchParams.has('sso');

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { data } = await api<SessionData>('POST', '/auth/login', { email, password, ...(needsCode ? { totp_code: totp } : {}) });
      setCsrfToken(data.csrf_token);
      // What was cached while signed out (the 401 session) must not outlive the login.
      client.removeQueries();
      navigate('/');
    } catch (err) {
      if (err instanceof ApiError && err.code === 'totp_required') setNeedsCode(true);
      else if (err instanceof ApiError && err.code === 'sso_required') {
        setRefusedForSso(true);
        setError(err.message);
      } else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Container size={420} my={60}>
      <Title order={1} ta="center">
        Klaxon
      </Title>
      {withSso ? (
        <Paper withBorder shadow="sm" p="lg" mt="lg" radius="md">
          <Stack>
            {error && (
              <Alert color="yellow" title="Single sign-on">
                {error}
              </Alert>
            )}
            <SsoLoginForm initialEmail={email} />
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => {
                setRefusedForSso(false);
                setError(null);
                setSearchParams({});
              }}
            >
              Use your password instead
            </Anchor>
          </Stack>
        </Paper>
      ) : (
        <Paper withBorder shadow="sm" p="lg" mt="lg" radius="md" component="form" onSubmit={submit}>
          <Stack>
            {error && (
              <Alert color="red" title="Could not log in">
                {error}
              </Alert>
            )}
            <TextInput label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
            <PasswordInput label="Password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
            {needsCode && (
              <TextInput
                label="Authentication code"
                inputMode="numeric"
                autoComplete="one-time-code"
                required
                value={totp}
                onChange={(e) => setTotp(e.currentTarget.value)}
              />
            )}
            <Button type="submit" loading={busy}>
              Log in
            </Button>
            {/* A link, not a second button: "Log in" stays the one button of its name. */}
            <Anchor component={Link} to="/login?sso" ta="center" size="sm">
              Log in with SSO
            </Anchor>
            <Group justify="space-between">
              <Anchor component={Link} to="/signup" size="sm">
                Create a workspace
              </Anchor>
              <Anchor component={Link} to="/reset-password" size="sm">
                Forgot your password?
              </Anchor>
            </Group>
          </Stack>
        </Paper>
      )}
    </Container>
  );
}
