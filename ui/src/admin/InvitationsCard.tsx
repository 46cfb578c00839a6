import { Alert, Button, Card, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import type { SessionView } from '../api/types';
import { Empty, FormError, LoadError, Loading } from '../components/PageStates';
import { ConfirmModal } from '../components/ConfirmModal';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { codeOf } from './errors';
import { assignableRoles, canManageMembers, ROLE_LABELS } from './roles';
import type { Invitation, Role } from './types';
import { VerifyEmailNotice } from './VerifyEmailNotice';
import { TableHead } from '../components/TableHead';

/** Pending invitations: invite by email with a role, revoke with a confirmation (Billing Owners and Account Admins). */
export function InvitationsCard({ session }: { session: SessionView }) {
  const manages = canManageMembers(session.role);
  const invitations = useApiQuery<Invitation[]>(['invitations'], '/invitations');
  const [form, setForm] = useState<{ email: string; role: Role }>({ email: '', role: 'MEMBER' });
  const invite = useAction((body: typeof form) => api<Invitation>('POST', '/invitations', body), {
    invalidate: [['invitations'], ['plan']],
    onSuccess: () => setForm({ ...form, email: '' }),
  });
  const revoke = useConfirmedAction((i: Invitation) => api('DELETE', `/invitations/${i.id}`), { invalidate: [['invitations'], ['plan']] });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate({ email: form.email.trim(), role: form.role });
  };
  const code = codeOf(invite.error);

  return (
    <Card withBorder>
      <Stack>
        <Title order={3} size="h4">
          Invitations
        </Title>
        {manages && (
          <Stack component="form" onSubmit={submit} aria-label="Invite someone" gap="xs">
            <Group align="flex-start" wrap="wrap">
              <TextInput
                label="Email address"
                type="email"
                required
                value={form.email}
                onChange={(e) => setForm({ ...form, email: e.currentTarget.value })}
                error={invite.fieldError('email')}
              />
              <Select
                label="Role"
                data={assignableRoles(session.role)}
                value={form.role}
                allowDeselect={false}
                onChange={(role) => role && setForm({ ...form, role: role as Role })}
                error={invite.fieldError('role')}
                w={190}
              />
            </Group>
            <Group>
              <Button type="submit" loading={invite.isPending}>
                Send invitation
              </Button>
            </Group>
            {invite.isSuccess && (
              <Text size="sm" role="status">
                {invite.data.message}
              </Text>
            )}
            {code === 'plan_limit_reached' ? (
              <Alert color="red" title="No seat left on this plan" role="alert">
                {invite.errorMessage} Remove a member or revoke a pending invitation first, or move to a bigger plan.
              </Alert>
            ) : code === 'email_unverified' ? (
              <VerifyEmailNotice what="invite people" />
            ) : (
              <FormError message={invite.formError} />
            )}
          </Stack>
        )}
        {invitations.isPending ? (
          <Loading what="invitations" />
        ) : invitations.error ? (
          <LoadError what="invitations" error={invitations.error} />
        ) : invitations.data.length === 0 ? (
          <Empty>
            No pending invitations.
            {manages ? ' Invite someone by email above: they get a link that works for 7 days.' : ' Billing Owners and Account Admins can invite people.'}
          </Empty>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label="Pending invitations" verticalSpacing="xs">
              <TableHead columns={['Email', 'Role', 'Invited by', 'Expires']} actions />
              <Table.Tbody>
                {invitations.data.map((i) => (
                  <Table.Tr key={i.id}>
                    <Table.Td>{i.email}</Table.Td>
                    <Table.Td>{ROLE_LABELS[i.role]}</Table.Td>
                    <Table.Td>{i.invited_by?.email ?? '—'}</Table.Td>
                    <Table.Td>{new Date(i.expires_at).toLocaleDateString()}</Table.Td>
                    <Table.Td>
                      {manages && (
                        <Button
                          size="compact-sm"
                          variant="default"
                          color="red"
                          aria-label={`Revoke the invitation to ${i.email}`}
                          onClick={() => revoke.ask(i)}
                        >
                          Revoke
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <ConfirmModal {...revoke.modal} title={`Revoke the invitation to ${revoke.target?.email ?? ''}?`} confirmLabel="Revoke">
        The emailed link stops working. You can invite the address again later.
      </ConfirmModal>
    </Card>
  );
}
