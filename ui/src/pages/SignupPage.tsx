import { Anchor, Button, PasswordInput, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, ApiError } from '../api/client';
import { AuthCard, fieldOf } from '../components/AuthCard';

/** Sign up: a FREE workspace with you as its Billing Owner; then verify the emailed link. */
export function SignupPage() {
  const [form, setForm] = useState({ name: '', email: '', password: '', organization_name: '' });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const field = fieldOf(error);
  const set = (k: keyof typeof form) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [k]: e.currentTarget.value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('POST', '/auth/signup', form);
      setDone(true);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <AuthCard title="Check your email">
        <Text>
          We sent a verification link to {form.email}. Open it, then{' '}
          <Anchor component={Link} to="/login">
            log in
          </Anchor>
          .
        </Text>
        <Text size="sm" c="dimmed">
          Running Klaxon on your machine without an email provider? The email is in the{' '}
          <Anchor component={Link} to="/dev/inbox">
            dev inbox
          </Anchor>
          .
        </Text>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Create your workspace" error={field ? null : error} errorTitle="Could not sign up" onSubmit={submit}>
      <TextInput label="Your name" required value={form.name} onChange={set('name')} error={field === 'name' ? error : undefined} />
      <TextInput
        label="Email"
        type="email"
        autoComplete="email"
        required
        value={form.email}
        onChange={set('email')}
        error={field === 'email' ? error : undefined}
      />
      <PasswordInput
        label="Password"
        autoComplete="new-password"
        required
        value={form.password}
        onChange={set('password')}
        error={field === 'password' ? error : undefined}
        description="At least 10 characters"
      />
      <TextInput
        label="Workspace name"
        required
        value={form.organization_name}
        onChange={set('organization_name')}
        error={field === 'organization_name' ? error : undefined}
      />
      <Button type="submit" loading={busy}>
        Sign up
      </Button>
      <Text size="sm">
        Already have an account?{' '}
        <Anchor component={Link} to="/login">
          Log in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
