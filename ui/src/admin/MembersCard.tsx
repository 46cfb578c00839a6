import { PHONE_CARDS, PhoneCardsContainer } from '../components/ResponsiveTable';
import { Badge, Button, Card, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import type { SessionView } from '../api/types';
import { Empty, LoadError, Loading } from '../components/PageStates';
import { ConfirmModal } from '../components/ConfirmModal';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { assignableRoles, canChangeMember, ROLE_LABELS } from './roles';
import type { Member, Role } from './types';
import { TableHead } from '../components/TableHead';

/**
 * The workspace's members. Billing Owners and Account Admins change a role with the row's select
 * (it applies at once: the member's sessions end) and remove with a confirmation; the server's
 * refusals (`last_billing_owner`) are shown on that row.
 */
export function MembersCard({ session }: { session: SessionView }) {
  const members = useApiQuery<Member[]>(['members'], '/members');
  const client = useQueryClient();
  const navigate = useNavigate();
  // A change to your own membership ends your own session here: go and log in again.
  const leaveIfSelf = (userId: string) => {
    if (userId !== session.user.id) return false;
    client.clear();
    navigate('/login');
    return true;
  };
  const [notice, setNotice] = useState<string | null>(null);
  const changeRole = useAction(async ({ member, role }: { member: Member; role: Role }) => api<Member>('PUT', `/members/${member.id}`, { role }), {
    invalidate: [['members']],
    onSuccess: (res) => leaveIfSelf(res.data.id) || setNotice(res.message),
  });
  const remove = useConfirmedAction(async (member: Member) => api('DELETE', `/members/${member.id}`), {
    invalidate: [['members'], ['plan']],
    onSuccess: (res, member) => {
      if (!leaveIfSelf(member.id)) setNotice(res.message);
    },
  });

  return (
    <Card withBorder>
      <Stack>
        <Title order={3} size="h4">
          People in this workspace
        </Title>
        {notice && (
          <Text size="sm" role="status">
            {notice}
          </Text>
        )}
        {members.isPending ? (
          <Loading what="members" />
        ) : members.error ? (
          <LoadError what="members" error={members.error} />
        ) : members.data.length === 0 ? (
          <Empty>No members yet. Invite someone below.</Empty>
        ) : (
          <PhoneCardsContainer minWidth={620}>
            <Table aria-label="Members" verticalSpacing="xs" className={PHONE_CARDS}>
              <TableHead columns={['Member', 'Role', 'Two-factor', 'Joined']} actions />
              <Table.Tbody>
                {members.data.map((m) => {
                  const editable = canChangeMember(session.role, m.role);
                  const rowError = changeRole.variables?.member.id === m.id ? changeRole.errorMessage : undefined;
                  return (
                    <Table.Tr key={m.id}>
                      <Table.Td>
                        <Text size="sm">
                          {m.name ?? m.email}
                          {m.id === session.user.id ? ' (you)' : ''}
                        </Text>
                        {m.name && (
                          <Text size="xs" c="dimmed">
                            {m.email}
                          </Text>
                        )}
                        {!m.verified && (
                          <Badge size="xs" color="yellow" variant="light">
                            unverified
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td data-label="Role">
                        {editable ? (
                          <Select
                            aria-label={`Role of ${m.email}`}
                            data={assignableRoles(session.role)}
                            value={m.role}
                            allowDeselect={false}
                            disabled={changeRole.isPending}
                            onChange={(role) => role && role !== m.role && changeRole.mutate({ member: m, role: role as Role })}
                            error={rowError}
                            w={190}
                          />
                        ) : (
                          <Text size="sm">{ROLE_LABELS[m.role]}</Text>
                        )}
                      </Table.Td>
                      <Table.Td data-label="Two-factor">
                        <Badge color={m.two_factor_enabled ? 'green' : 'gray'} variant="light">
                          {m.two_factor_enabled ? 'on' : 'off'}
                        </Badge>
                      </Table.Td>
                      <Table.Td data-label="Joined">
                        <Text size="sm">{new Date(m.joined_at).toLocaleDateString()}</Text>
                      </Table.Td>
                      <Table.Td>
                        {editable && (
                          <Button size="compact-sm" variant="default" color="red" aria-label={`Remove ${m.email}`} onClick={() => remove.ask(m)}>
                            Remove
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </PhoneCardsContainer>
        )}
        <Text size="xs" c="dimmed">
          A new role applies at the member’s next login: changing it logs them out of this workspace.
        </Text>
      </Stack>
      <ConfirmModal {...remove.modal} title={`Remove ${remove.target?.email ?? ''}?`} confirmLabel="Remove">
        {remove.target?.id === session.user.id ? 'This is you: you will be logged out of this workspace. ' : ''}They leave this workspace and its teams; their
        sessions here end and their API tokens and API keys stop working. Their Klaxon account and other workspaces stay.
      </ConfirmModal>
    </Card>
  );
}
