import { Anchor, Badge, Button, Card, Group, Modal, Select, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import { FormError } from '../components/PageStates';
import type { Policy, Service, Team } from './types';
import { TableHead } from '../components/TableHead';
import { PHONE_CARDS, PhoneCardsContainer } from '../components/ResponsiveTable';
import { ServiceChatModal } from './ServiceChatModal';
import { GroupingEditor } from '../services/GroupingEditor';
import { MaintenanceModal } from '../maintenance/MaintenanceModal';
import { activeWindowsPath, heldUntil, MAINTENANCE_KEY, type MaintenanceWindow } from '../maintenance/maintenance';

/** Services: who owns each and which escalation policy pages for it (none: nobody is paged). */
export function ServicesCard() {
  const teams = useApiQuery<Team[]>(['teams'], '/teams');
  const services = useApiQuery<Service[]>(['services'], '/services');
  const policies = useApiQuery<Policy[]>(['escalation-policies'], '/escalation-policies');
  const [form, setForm] = useState({ name: '', team_id: '', escalation_policy_id: '' });
  const [chatFor, setChatFor] = useState<Service | null>(null);
  const [maintenanceFor, setMaintenanceFor] = useState<Service | null>(null);
  const [groupingFor, setGroupingFor] = useState<Service | null>(null);
  const active = useApiQuery<MaintenanceWindow[]>([...MAINTENANCE_KEY, 'active'], activeWindowsPath(), { refetchInterval: 30_000 });
  /** A service's window lasting longest, while one is active. */
  const maintenanceOf = (serviceId: string) => heldUntil((active.data ?? []).filter((w) => w.service_ids.includes(serviceId)));
  const create = useAction(
    () =>
      api('POST', '/services', {
        name: form.name,
        team_id: form.team_id,
        ...(form.escalation_policy_id ? { escalation_policy_id: form.escalation_policy_id } : {}),
      }),
    { invalidate: [['services'], ['teams']], onSuccess: () => setForm({ ...form, name: '' }) },
  );
  const setPolicy = useAction((v: { id: string; policy: string | null }) => api('PUT', `/services/${v.id}`, { escalation_policy_id: v.policy }), {
    invalidate: [['services'], ['escalation-policies']],
  });
  const teamOptions = (teams.data ?? []).map((t) => ({ value: t.id, label: t.name }));
  const policyOptions = (policies.data ?? []).map((p) => ({ value: p.id, label: p.name }));
  const teamName = new Map((teams.data ?? []).map((t) => [t.id, t.name]));
  return (
    <Card
      withBorder
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
      aria-label="New service"
    >
      <Title order={3} size="h4">
        Services
      </Title>
      {services.data?.length === 0 && (
        <Text size="sm" c="dimmed">
          No service yet. Alerts arrive on a service; its escalation policy says who is paged.
        </Text>
      )}
      <FormError message={create.formError ?? setPolicy.errorMessage} />
      <Group align="end" mt="xs" wrap="wrap">
        <TextInput
          label="Service name"
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
          error={create.fieldError('name')}
        />
        <Select
          label="Owning team"
          data={teamOptions}
          value={form.team_id || null}
          onChange={(v) => setForm({ ...form, team_id: v ?? '' })}
          error={create.fieldError('team_id')}
        />
        <Select
          label="Escalation policy"
          placeholder="Nobody is paged"
          data={policyOptions}
          value={form.escalation_policy_id || null}
          onChange={(v) => setForm({ ...form, escalation_policy_id: v ?? '' })}
          clearable
          error={create.fieldError('escalation_policy_id')}
        />
        <Button type="submit" loading={create.isPending}>
          Create service
        </Button>
      </Group>
      {!!services.data?.length && (
        <PhoneCardsContainer minWidth={420} mt="md">
          <Table aria-label="Services" className={PHONE_CARDS}>
            <TableHead columns={['Service', 'Team', 'Escalation policy', 'Chat', 'Maintenance', 'Grouping']} />
            <Table.Tbody>
              {services.data.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/services/${s.id}`}>
                      {s.name}
                    </Anchor>
                    {maintenanceOf(s.id) && (
                      <Badge ml="xs" color="yellow" title={`“${maintenanceOf(s.id)!.reason}”: nobody is paged`}>
                        In maintenance until {new Date(maintenanceOf(s.id)!.ends_at).toLocaleString()}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td data-label="Team">{teamName.get(s.owning_team_id) ?? '—'}</Table.Td>
                  <Table.Td data-label="Escalation policy">
                    <Select
                      aria-label={`Escalation policy of ${s.name}`}
                      placeholder="Nobody is paged"
                      data={policyOptions}
                      value={s.escalation_policy_id}
                      onChange={(v) => setPolicy.mutate({ id: s.id, policy: v })}
                      clearable
                      size="xs"
                    />
                  </Table.Td>
                  <Table.Td>
                    <Button size="compact-sm" variant="default" aria-label={`Chat for ${s.name}`} onClick={() => setChatFor(s)}>
                      Chat
                    </Button>
                  </Table.Td>
                  <Table.Td>
                    <Button size="compact-sm" variant="default" aria-label={`Maintenance of ${s.name}`} onClick={() => setMaintenanceFor(s)}>
                      Maintenance
                    </Button>
                  </Table.Td>
                  <Table.Td>
                    <Button size="compact-sm" variant="default" aria-label={`Grouping of ${s.name}`} onClick={() => setGroupingFor(s)}>
                      Grouping
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </PhoneCardsContainer>
      )}
      <ServiceChatModal service={chatFor} onClose={() => setChatFor(null)} />
      <MaintenanceModal service={maintenanceFor} onClose={() => setMaintenanceFor(null)} />
      <Modal opened={groupingFor !== null} onClose={() => setGroupingFor(null)} title={`Grouping rules of ${groupingFor?.name ?? ''}`} size="xl">
        {groupingFor && <GroupingEditor serviceId={groupingFor.id} />}
      </Modal>
    </Card>
  );
}
