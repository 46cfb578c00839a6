import { PHONE_CARDS, PhoneCardsContainer } from '../components/ResponsiveTable';
import { Alert, Button, Card, Group, Stack, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery, useSession } from '../api/hooks';
import { Empty, Loading, LoadError } from '../components/PageStates';
import { ConfirmModal } from '../components/ConfirmModal';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { formatDuration, summariseSteps, type ListedPolicy, type Policy, type PolicyBody } from './policy-form';
import { PolicyEditor } from './PolicyEditor';
import type { Simulation } from './SimulationView';
import type { Readiness } from '../readiness/readiness';
import { ReadinessWarning } from '../readiness/ReadinessList';
import { targetNamer, type Directory } from './targets';
import { TableHead } from '../components/TableHead';

const POLICIES = ['escalation-policies'];
/** Policies belong to the workspace: only these roles hold escalation.manage. */
const MANAGERS = new Set(['BILLING_OWNER', 'ACCOUNT_ADMIN']);

/** The workspace's members, schedules and teams: what a step can page. */
function useDirectory(): Directory {
  const users = useApiQuery<Directory['users']>(['members'], '/members');
  const schedules = useApiQuery<Directory['schedules']>(['schedules'], '/schedules');
  const teams = useApiQuery<Directory['teams']>(['teams'], '/teams');
  return { users: users.data ?? [], schedules: schedules.data ?? [], teams: teams.data ?? [] };
}

/** Escalation policies: who is paged, in what order; admins create, change and delete them, everyone reads them. */
export function PoliciesPage() {
  const session = useSession();
  const canManage = MANAGERS.has(session.data?.role ?? '');
  const policies = useApiQuery<ListedPolicy[]>(POLICIES, '/escalation-policies');
  const services = useApiQuery<Array<{ id: string; name: string }>>(['services'], '/services');
  const directory = useDirectory();
  const nameOf = targetNamer(directory, { short: true });
  const serviceName = new Map((services.data ?? []).map((s) => [s.id, s.name]));

  // 'new', the policy being edited (or, read-only, viewed), or nothing open.
  const [open, setOpen] = useState<'new' | Policy | null>(null);
  // The policy saved last: its gaps in the next 14 days are shown until another is opened.
  const [saved, setSaved] = useState<Policy | null>(null);
  const save = useAction(
    ({ id, body }: { id?: string; body: PolicyBody }) =>
      id ? api<Policy>('PUT', `/escalation-policies/${id}`, body) : api<Policy>('POST', '/escalation-policies', body),
    {
      invalidate: [POLICIES, ['readiness']],
      onSuccess: (res) => {
        setOpen(null);
        setSaved(res.data);
      },
    },
  );
  const savedGaps = useApiQuery<Readiness>(['readiness', 'policy', saved?.id], `/readiness?policy_id=${saved?.id}`, { enabled: !!saved });
  const remove = useConfirmedAction((p: ListedPolicy) => api('DELETE', `/escalation-policies/${p.id}`), {
    invalidate: [POLICIES],
    onSuccess: (_, p) => setOpen((o) => (o !== 'new' && o?.id === p.id ? null : o)), // the deleted policy's editor goes with it
  });

  const simulate = useAction(({ body, serviceId }: { body: PolicyBody; serviceId: string }) => {
    const to = new Date();
    const from = new Date(to.getTime() - 30 * 86_400_000);
    return api<Simulation>('POST', '/escalation-policies/simulate', { policy: body, service_id: serviceId, from: from.toISOString(), to: to.toISOString() });
  });

  const show = (what: 'new' | Policy) => {
    save.reset();
    setSaved(null);
    simulate.reset();
    setOpen(what);
  };
  const editing = open === 'new' ? undefined : (open ?? undefined);

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Escalation policies</Title>
        {canManage && open === null && <Button onClick={() => show('new')}>New policy</Button>}
      </Group>
      {session.data && !canManage && (
        <Alert color="gray" title="Read only">
          Billing Owners and Account Admins change escalation policies; you can read them here.
        </Alert>
      )}
      {open !== null && (
        <Card withBorder>
          <PolicyEditor
            key={editing?.id ?? 'new'}
            initial={editing}
            directory={directory}
            readOnly={!canManage}
            saving={save.isPending}
            serverError={save.errorMessage}
            onSave={(body) => save.mutate({ id: editing?.id, body })}
            onCancel={() => setOpen(null)}
            simulation={{
              services: services.data ?? [],
              defaultServiceId: editing && 'service_ids' in editing ? (editing as ListedPolicy).service_ids[0] : undefined,
              run: (body, serviceId) => simulate.mutate({ body, serviceId }),
              pending: simulate.isPending,
              result: simulate.data?.data,
              error: simulate.errorMessage,
            }}
          />
        </Card>
      )}
      {saved && <ReadinessWarning gaps={savedGaps.data?.gaps} what={`“${saved.name}”`} me={session.data?.user.id} />}
      {policies.isPending && <Loading what="escalation policies" />}
      <LoadError what="escalation policies" error={policies.error} />
      {policies.data?.length === 0 && (
        <Empty>
          {canManage
            ? 'No escalation policy yet. Create one to say who is paged, and in what order, when a service has an incident; then give it to services in Set up.'
            : 'No escalation policy yet. A Billing Owner or Account Admin can create one.'}
        </Empty>
      )}
      {!!policies.data?.length && (
        <PhoneCardsContainer minWidth={720}>
          <Table aria-label="Escalation policies" verticalSpacing="sm" className={PHONE_CARDS}>
            <TableHead columns={['Name', 'Steps', 'Repeat', 'Ack timeout', 'Services']} actions />
            <Table.Tbody>
              {policies.data.map((p) => (
                <Table.Tr key={p.id} aria-label={p.name}>
                  <Table.Td fw={600}>{p.name}</Table.Td>
                  <Table.Td data-label="Steps">{summariseSteps(p.steps, nameOf)}</Table.Td>
                  <Table.Td data-label="Repeat">{p.repeat ? `${p.repeat} more time(s)` : 'Once'}</Table.Td>
                  <Table.Td data-label="Ack timeout">{p.ack_timeout_seconds === null ? 'Never' : formatDuration(p.ack_timeout_seconds)}</Table.Td>
                  <Table.Td data-label="Services">{p.service_ids.map((id) => serviceName.get(id) ?? id.slice(0, 8)).join(', ') || 'None'}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {canManage ? (
                        <>
                          <Button size="compact-sm" variant="default" onClick={() => show(p)} aria-label={`Edit ${p.name}`}>
                            Edit
                          </Button>
                          <Button size="compact-sm" variant="subtle" color="red" onClick={() => remove.ask(p)} aria-label={`Delete ${p.name}`}>
                            Delete
                          </Button>
                        </>
                      ) : (
                        <Button size="compact-sm" variant="default" onClick={() => show(p)} aria-label={`View ${p.name}`}>
                          View
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </PhoneCardsContainer>
      )}
      <ConfirmModal {...remove.modal} title={`Delete ${remove.target?.name ?? 'policy'}?`} confirmLabel="Delete policy">
        {remove.target?.service_ids.length
          ? `Services page with this policy (${remove.target.service_ids.map((id) => serviceName.get(id) ?? id).join(', ')}); give them another policy first, or the server will refuse.`
          : 'No service pages with this policy. It is removed for good.'}
      </ConfirmModal>
    </Stack>
  );
}
