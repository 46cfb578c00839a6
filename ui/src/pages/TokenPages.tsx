import { Anchor, Button, Loader, PasswordInput, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, ApiError } from '../api/client';
import { AuthCard, fieldOf } from '../components/AuthCard';

const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/** The emailed verification link: `/verify?token=…` verifies at once. */
export function VerifyPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<'working' | 'done' | string>('working');
  // A token works once: ask once per token, whatever re-renders (or StrictMode) do.
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (asked.current === token) return;
    asked.current = token;
    api('POST', '/auth/verify', { token }).then(
      () => setState('done'),
      (err) => setState(messageOf(err)),
    );
  }, [token]);
  if (state === 'working')
    return (
      <AuthCard title="Verifying your email">
        <Loader aria-label="Verifying" />
      </AuthCard>
    );
  if (state === 'done')
    return (
      <AuthCard title="Email verified">
        <Text>
          Your address is verified.{' '}
          <Anchor component={Link} to="/login">
            Log in
          </Anchor>
          .
        </Text>
      </AuthCard>
    );
  return (
    <AuthCard title="This link does not work" error={state} errorTitle="Not verified">
      <Text>Log in and ask for a new link.</Text>
    </AuthCard>
  );
}

/** `/reset-password`: ask for a link; with `?token=…` (the emailed link), choose the new password. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      if (token) await api('POST', '/auth/password-reset/confirm', { token, new_password: value });
      else await api('POST', '/auth/password-reset', { email: value });
      setDone(true);
    } catch (err) {
      setError(messageOf(err));
    }
  }
  if (done)
    return (
      <AuthCard title={token ? 'Password changed' : 'Check your email'}>
        <Text>
          {token ? (
            <>
              Log in with your new password.{' '}
              <Anchor component={Link} to="/login">
                Log in
              </Anchor>
            </>
          ) : (
            'If an account has this address, a reset link is on its way.'
          )}
        </Text>
      </AuthCard>
    );
  return (
    <AuthCard title={token ? 'Choose a new password' : 'Reset your password'} onSubmit={submit} error={fieldOf(error) ? null : error}>
      {token ? (
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          required
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          error={fieldOf(error) ? error : undefined}
        />
      ) : (
        <TextInput
          label="Email"
          type="email"
          required
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          error={fieldOf(error) ? error : undefined}
        />
      )}
      <Button type="submit">{token ? 'Set password' : 'Send reset link'}</Button>
    </AuthCard>
  );
}

/** `/invitations/accept?token=…`: join the workspace (a new account sets a password; an existing one gives its own). */
export function AcceptInvitationPage() {
  const [params] = useSearchParams();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [joined, setJoined] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const { data } = await api<{ organization?: { name: string } }>('POST', '/invitations/accept', {
        token: params.get('token') ?? '',
        password,
        ...(name ? { name } : {}),
      });
      setJoined(data.organization?.name ?? 'the workspace');
    } catch (err) {
      setError(messageOf(err));
    }
  }
  if (joined)
    return (
      <AuthCard title="You are in">
        <Text>
          You joined {joined}.{' '}
          <Anchor component={Link} to="/login">
            Log in
          </Anchor>
          .
        </Text>
      </AuthCard>
    );
  return (
    <AuthCard title="Join a workspace" onSubmit={submit} error={fieldOf(error) ? null : error} errorTitle="Could not join">
      <TextInput label="Your name (new accounts)" value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <PasswordInput
        label="Password"
        description="A new password for a new account, or your current one"
        required
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
        error={fieldOf(error) === 'password' ? error : undefined}
      />
      <Button type="submit">Join</Button>
    </AuthCard>
  );
}
