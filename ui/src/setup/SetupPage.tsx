import { Alert, Button, Card, CopyButton, Group, MultiSelect, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { fieldOf } from '../components/AuthCard';

interface Team { id: string; name: string }
interface Service { id: string; name: string; owning_team_id?: string; team_id?: string }
interface Webhook { id: string; name: string; status: string; webhook_url: string | null; notification_types: string[] }
interface TestResult { notification_type: string; channel: string; to: string | null; status: string; error?: string | null }

const NOTIFICATION_TYPES = ['EMAIL', 'SMS', 'PUSH_NOTIF', 'CALL'];

/** Day-one set-up: teams, services, and webhooks with their ingestion URL (copy, test). */
export function SetupPage() {
  const client = useQueryClient();
  const teams = useQuery({ queryKey: ['teams'], queryFn: async () => (await api<Team[]>('GET', '/teams')).data });
  const services = useQuery({ queryKey: ['services'], queryFn: async () => (await api<Service[]>('GET', '/services')).data });
  const webhooks = useQuery({
    queryKey: ['webhooks'],
    queryFn: async () => ((await (await fetch('/api/webhooks', { credentials: 'same-origin' })).json()) as { webhooks: Webhook[] }).webhooks,
  });
  const refresh = () => client.invalidateQueries();

  const [teamName, setTeamName] = useState('');
  const [service, setService] = useState({ name: '', team_id: '' });
  const [hook, setHook] = useState({ name: '', types: ['EMAIL'] as string[], service_id: '' });
  const [error, setError] = useState<string | null>(null);
  const [tested, setTested] = useState<Record<string, TestResult[] | string>>({});

  const run = useMutation({
    mutationFn: async (work: () => Promise<unknown>) => work(),
    onMutate: () => setError(null),
    onSuccess: refresh,
    onError: (err) => setError(err instanceof Error ? err.message : String(err)),
  });
  const submit = (work: () => Promise<unknown>) => (e: FormEvent) => {
    e.preventDefault();
    run.mutate(work);
  };
  const field = fieldOf(error);
  const teamOptions = (teams.data ?? []).map((t) => ({ value: t.id, label: t.name }));
  const serviceOptions = (services.data ?? []).map((s) => ({ value: s.id, label: s.name }));

  async function test(id: string) {
    try {
      const { data } = await api<{ sends: TestResult[] }>('POST', `/webhooks/${id}/test`);
      setTested({ ...tested, [id]: data.sends });
    } catch (err) {
      setTested({ ...tested, [id]: err instanceof Error ? err.message : String(err) });
    }
  }

  return (
    <Stack maw={960}>
      <Title order={2}>Set up</Title>
      {error && !field && <Alert color="red" title="Not done">{error}</Alert>}
      <Card withBorder component="form" onSubmit={submit(() => api('POST', '/teams', { name: teamName }).then(() => setTeamName('')))} aria-label="New team">
        <Title order={3} size="h4">Teams</Title>
        <Text size="sm" c="dimmed">{teams.data?.map((t) => t.name).join(', ') || 'No team yet.'}</Text>
        <Group align="end" mt="xs">
          <TextInput label="Team name" value={teamName} onChange={(e) => setTeamName(e.currentTarget.value)} error={field === 'name' ? error : undefined} />
          <Button type="submit">Create team</Button>
        </Group>
      </Card>
      <Card withBorder component="form" onSubmit={submit(() => api('POST', '/services', { name: service.name, team_id: service.team_id }).then(() => setService({ name: '', team_id: service.team_id })))} aria-label="New service">
        <Title order={3} size="h4">Services</Title>
        <Text size="sm" c="dimmed">{services.data?.map((s) => s.name).join(', ') || 'No service yet.'}</Text>
        <Group align="end" mt="xs" wrap="wrap">
          <TextInput label="Service name" value={service.name} onChange={(e) => setService({ ...service, name: e.currentTarget.value })} error={field === 'name' ? error : undefined} />
          <Select label="Owning team" data={teamOptions} value={service.team_id || null} onChange={(v) => setService({ ...service, team_id: v ?? '' })} error={field === 'team_id' ? error : undefined} />
          <Button type="submit">Create service</Button>
        </Group>
      </Card>
      <Card withBorder component="form" onSubmit={submit(() => api('POST', '/webhooks', { name: hook.name, notificationTypes: hook.types, ...(hook.service_id ? { service_id: hook.service_id } : {}) }))} aria-label="New webhook">
        <Title order={3} size="h4">Webhooks</Title>
        <Group align="end" mt="xs" wrap="wrap">
          <TextInput label="Webhook name" value={hook.name} onChange={(e) => setHook({ ...hook, name: e.currentTarget.value })} error={field === 'name' ? error : undefined} />
          <MultiSelect label="Notify by" data={NOTIFICATION_TYPES} value={hook.types} onChange={(types) => setHook({ ...hook, types })} error={field === 'notificationTypes' ? error : undefined} />
          <Select label="Service" data={serviceOptions} value={hook.service_id || null} onChange={(v) => setHook({ ...hook, service_id: v ?? '' })} clearable error={field === 'service_id' ? error : undefined} />
          <Button type="submit">Create webhook</Button>
        </Group>
        <Table.ScrollContainer minWidth={500} mt="md">
          <Table aria-label="Webhooks">
            <Table.Tbody>
              {webhooks.data?.map((w) => (
                <Table.Tr key={w.id}>
                  <Table.Td>{w.name}</Table.Td>
                  <Table.Td>{w.notification_types.join(', ')}</Table.Td>
                  <Table.Td>
                    {w.webhook_url && (
                      <CopyButton value={w.webhook_url}>
                        {({ copied, copy }) => <Button size="compact-sm" variant="default" onClick={copy} aria-label={`Copy the ingestion URL of ${w.name}`}>{copied ? 'Copied' : 'Copy URL'}</Button>}
                      </CopyButton>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Button size="compact-sm" variant="default" onClick={() => test(w.id)} aria-label={`Send a test notification for ${w.name}`}>Test</Button>
                    {typeof tested[w.id] === 'string' && <Text size="xs" c="red">{tested[w.id] as string}</Text>}
                    {Array.isArray(tested[w.id]) && (tested[w.id] as TestResult[]).map((r) => <Text size="xs" key={r.notification_type}>{r.notification_type}: {r.status}{r.to ? ` to ${r.to}` : ''}{r.channel !== r.notification_type.toLowerCase() ? ` (by ${r.channel})` : ''}</Text>)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
    </Stack>
  );
}
