import { Button, Card, Group, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import { FormError } from '../components/PageStates';
import type { Team } from './types';

/** The workspace's teams, and a form for a new one. */
export function TeamsCard() {
  const teams = useApiQuery<Team[]>(['teams'], '/teams');
  const [name, setName] = useState('');
  const create = useAction((teamName: string) => api('POST', '/teams', { name: teamName }), { invalidate: [['teams']], onSuccess: () => setName('') });
  return (
    <Card withBorder component="form" onSubmit={(e) => { e.preventDefault(); create.mutate(name); }} aria-label="New team">
      <Title order={3} size="h4">Teams</Title>
      <Text size="sm" c="dimmed">{teams.data?.map((t) => t.name).join(', ') || (teams.isPending ? 'Loading…' : 'No team yet: a service belongs to a team.')}</Text>
      <FormError message={create.formError} />
      <Group align="end" mt="xs">
        <TextInput label="Team name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={create.fieldError('name')} />
        <Button type="submit" loading={create.isPending}>Create team</Button>
      </Group>
    </Card>
  );
}
