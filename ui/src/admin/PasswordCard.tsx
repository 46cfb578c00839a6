import { Button, Card, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useAction } from '../api/hooks';
import type { SessionView } from '../api/types';
import { FormError } from '../components/PageStates';
import { adoptRotatedSession } from './session';

/** Change the password: the current one is checked; every other session ends, this one continues. */
export function PasswordCard() {
  const client = useQueryClient();
  const [form, setForm] = useState({ current_password: '', new_password: '' });
  const change = useAction(async (body: typeof form) => api<SessionView>('POST', '/auth/password', body), {
    onSuccess: (res) => {
      adoptRotatedSession(client, res.data);
      setForm({ current_password: '', new_password: '' });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate(form);
  };
  return (
    <Card withBorder>
      <Stack component="form" onSubmit={submit} aria-label="Change password" gap="sm">
        <Title order={3} size="h4">
          Password
        </Title>
        <Stack gap="xs" maw={360}>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            value={form.current_password}
            onChange={(e) => setForm({ ...form, current_password: e.currentTarget.value })}
            error={change.fieldError('current_password')}
          />
          <PasswordInput
            label="New password"
            description="At least 10 characters"
            autoComplete="new-password"
            required
            value={form.new_password}
            onChange={(e) => setForm({ ...form, new_password: e.currentTarget.value })}
            error={change.fieldError('new_password')}
          />
        </Stack>
        <Group>
          <Button type="submit" loading={change.isPending}>
            Change password
          </Button>
        </Group>
        {change.isSuccess && (
          <Text size="sm" role="status">
            {change.data.message}
          </Text>
        )}
        <FormError message={change.formError} />
      </Stack>
    </Card>
  );
}
