import { Button, Card, Group, Table, Text, TextInput, Title } from '@mantine/core';
import { PHONE_CARDS, PhoneCardsContainer } from '../components/ResponsiveTable';
import { useState } from 'react';
import { can } from '../../../src/domain/permissions';
import { api } from '../api/client';
import { useAction, useApiQuery, useSession } from '../api/hooks';
import { ConfirmModal } from '../components/ConfirmModal';
import { FormError } from '../components/PageStates';
import { TableHead } from '../components/TableHead';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { TeamMembersModal } from './TeamMembersModal';
import type { Team } from './types';

/**
 * The workspace's teams: who is in each (a team target pages its members; "my teams" filters by
 * it), the services it owns, and a form for a new one. Billing Owners and Account Admins create
 * and delete teams; the server refuses deleting one that owns services or that a policy pages.
 */
export function TeamsCard() {
  const session = useSession();
  const teams = useApiQuery<Team[]>(['teams'], '/teams');
  const manage = session.data ? can(session.data.role, 'teams.manage') : false;
  const [name, setName] = useState('');
  const [shown, setShown] = useState<Team | null>(null);
  const create = useAction((teamName: string) => api('POST', '/teams', { name: teamName }), { invalidate: [['teams']], onSuccess: () => setName('') });
  const remove = useConfirmedAction((team: Team) => api('DELETE', `/teams/${team.id}`), { invalidate: [['teams']] });
  return (
    <Card withBorder>
      <Title order={3} size="h4">
        Teams
      </Title>
      {teams.data?.length === 0 && (
        <Text size="sm" c="dimmed">
          No team yet: a service belongs to a team.
        </Text>
      )}
      {!!teams.data?.length && (
        <PhoneCardsContainer minWidth={360} mt="xs">
          <Table aria-label="Teams" className={PHONE_CARDS}>
            <TableHead columns={['Team', 'Members', 'Services']} actions />
            <Table.Tbody>
              {teams.data.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td>{t.name}</Table.Td>
                  <Table.Td data-label="Members">{t.member_count}</Table.Td>
                  <Table.Td data-label="Services">{t.service_count}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap" justify="flex-end">
                      <Button size="xs" variant="default" aria-label={`Members of ${t.name}`} onClick={() => setShown(t)}>
                        Members
                      </Button>
                      {manage && (
                        <Button size="xs" variant="subtle" color="red" aria-label={`Delete team ${t.name}`} onClick={() => remove.ask(t)}>
                          Delete
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
      {manage && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(name);
          }}
          aria-label="New team"
        >
          <FormError message={create.formError} />
          <Group align="end" mt="xs">
            <TextInput label="Team name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={create.fieldError('name')} />
            <Button type="submit" loading={create.isPending}>
              Create team
            </Button>
          </Group>
        </form>
      )}
      {shown && session.data && <TeamMembersModal team={shown} session={session.data} onClose={() => setShown(null)} />}
      <ConfirmModal {...remove.modal} title={`Delete team ${remove.target?.name ?? ''}?`} confirmLabel="Delete team">
        Its member list goes; the people stay in the workspace. A team that owns services, or that an escalation policy pages, stays until they no longer need
        it.
      </ConfirmModal>
    </Card>
  );
}
