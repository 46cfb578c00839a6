import { Button, Group, Modal, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { can } from '../../../src/domain/permissions';
import { ROLE_LABELS } from '../admin/roles';
import type { Member } from '../admin/types';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import type { SessionView } from '../api/types';
import { FormError, LoadError, Loading } from '../components/PageStates';
import { personLabel, personPickerLabel } from '../components/people';
import { TableHead } from '../components/TableHead';
import type { Team, TeamDetail } from './types';

/**
 * One team's people and services. Billing Owners, Account Admins and the team's own Team
 * Managers add workspace members to it and take them out (they stay in the workspace).
 */
export function TeamMembersModal({ team, session, onClose }: { team: Team; session: SessionView; onClose: () => void }) {
  const detail = useApiQuery<TeamDetail>(['teams', team.id], `/teams/${team.id}`);
  const members = useApiQuery<Member[]>(['members'], '/members');
  const [picked, setPicked] = useState<string | null>(null);
  const inTeam = detail.data?.members.some((m) => m.id === session.user.id) ?? false;
  const edit = can(session.role, 'team.members.manage', { inOwningTeam: inTeam });
  const add = useAction((userId: string) => api('POST', `/teams/${team.id}/members`, { user_id: userId }), {
    invalidate: [['teams']],
    onSuccess: () => setPicked(null),
  });
  const remove = useAction((userId: string) => api('DELETE', `/teams/${team.id}/members/${userId}`), { invalidate: [['teams']] });
  const already = new Set(detail.data?.members.map((m) => m.id));
  const candidates = (members.data ?? []).filter((m) => !already.has(m.id)).map((m) => ({ value: m.id, label: personPickerLabel(m) }));
  return (
    <Modal opened onClose={onClose} title={`Team ${team.name}`} centered size="lg">
      {detail.isPending ? (
        <Loading what="the team" />
      ) : detail.isError ? (
        <LoadError what="the team" error={detail.error} />
      ) : (
        <Stack>
          <Text size="sm" c="dimmed">
            {detail.data.services.length ? `Owns ${detail.data.services.map((s) => s.name).join(', ')}.` : 'Owns no service.'} An escalation step that targets
            this team pages every member below.
          </Text>
          <FormError message={remove.errorMessage} />
          {detail.data.members.length === 0 ? (
            <Text size="sm">Nobody is in this team yet: a step that targets it pages nobody.</Text>
          ) : (
            <Table.ScrollContainer minWidth={320}>
              <Table aria-label={`Members of ${team.name}`}>
                <TableHead columns={['Member', 'Role']} actions={edit} />
                <Table.Tbody>
                  {detail.data.members.map((m) => (
                    <Table.Tr key={m.id}>
                      <Table.Td>
                        {personLabel(m)}
                        {m.name && (
                          <Text size="xs" c="dimmed">
                            {m.email}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{ROLE_LABELS[m.role]}</Table.Td>
                      {edit && (
                        <Table.Td>
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            aria-label={`Take ${personLabel(m)} out of ${team.name}`}
                            loading={remove.isPending && remove.variables === m.id}
                            onClick={() => remove.mutate(m.id)}
                          >
                            Take out
                          </Button>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {edit && (
            <form
              aria-label={`Add to ${team.name}`}
              onSubmit={(e) => {
                e.preventDefault();
                if (picked) add.mutate(picked);
              }}
            >
              <FormError message={add.formError} />
              <Group align="end" wrap="wrap">
                <Select
                  label="Add a member"
                  placeholder={candidates.length ? 'Pick someone' : 'Everyone is in it'}
                  data={candidates}
                  value={picked}
                  onChange={setPicked}
                  searchable
                  error={add.fieldError('user_id')}
                />
                <Button type="submit" disabled={!picked} loading={add.isPending}>
                  Add to team
                </Button>
              </Group>
            </form>
          )}
        </Stack>
      )}
    </Modal>
  );
}
