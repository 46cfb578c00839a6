import { Badge, Button, Card, Code, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import type { SessionView } from '../api/types';
import { can } from '../../../src/domain/permissions';
import { Empty, FormError, LoadError, Loading } from '../components/PageStates';
import { ConfirmModal } from '../components/ConfirmModal';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { credentialLabel, keyBody, when } from './credentials';
import { codeOf } from './errors';
import { StepUpCancelled, withStepUp } from './factor';
import { ShownOnceModal } from './ShownOnceModal';
import { useStepUp } from './StepUp';
import type { ApiKey, NewApiKey } from './types';
import { VerifyEmailNotice } from './VerifyEmailNotice';
import { TableHead } from '../components/TableHead';

const NOWRAP = { whiteSpace: 'nowrap' } as const;
// A badge's label clips (overflow: hidden), so a table column would shrink it to "ACT…": let it set the width.
const BADGE_STYLES = { label: { overflow: 'visible' } } as const;

/** API keys: everyone holds their own; Billing Owners and Account Admins see and revoke all. */
export function ApiKeysCard({ session }: { session: SessionView }) {
  const keys = useApiQuery<ApiKey[]>(['api-keys'], '/api-keys');
  const stepUp = useStepUp('Creating an API key needs your confirmation');
  const [name, setName] = useState('');
  const [shown, setShown] = useState<NewApiKey | null>(null);
  const managesAll = can(session.role, 'api_keys.manage_any');

  const create = useAction(
    (body: ReturnType<typeof keyBody>) => withStepUp(async () => (await api<NewApiKey>('POST', '/api-keys', body)).data, stepUp.confirm),
    {
      invalidate: [['api-keys']],
      onSuccess: (key) => {
        setShown(key);
        setName('');
      },
    },
  );
  const revoke = useConfirmedAction((k: ApiKey) => api('DELETE', `/api-keys/${k.id}`), { invalidate: [['api-keys']] });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(keyBody(name), { onError: (err) => err instanceof StepUpCancelled && create.reset() });
  };
  const closeShown = () => {
    setShown(null);
    create.reset();
  };
  // The page says it once when the session knows; this covers a session that thought otherwise.
  const unverified = session.user.verified && codeOf(create.error) === 'email_unverified';

  return (
    <Card withBorder>
      <Stack>
        <div>
          <Title order={3} size="h4">
            API keys
          </Title>
          <Text size="sm" c="dimmed">
            Keys (<Code>klxk_…</Code>) for the API-key surface, held by one person.{' '}
            {managesAll ? 'You see every key of the workspace.' : 'You see your own keys.'}
          </Text>
        </div>
        {unverified && <VerifyEmailNotice what="create API keys" />}
        <Stack component="form" onSubmit={submit} aria-label="New API key" gap="xs">
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Key name"
              placeholder="deploy bot"
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={create.fieldError('name')}
            />
            <Button type="submit" loading={create.isPending}>
              Create key
            </Button>
          </Group>
          {codeOf(create.error) !== 'email_unverified' && <FormError message={create.formError} />}
        </Stack>
        {keys.isPending ? (
          <Loading what="API keys" />
        ) : keys.error ? (
          <LoadError what="API keys" error={keys.error} />
        ) : keys.data.length === 0 ? (
          <Empty>No API keys yet. Create one above for a script that talks to the API-key surface as you.</Empty>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table aria-label="API keys" verticalSpacing="xs">
              <TableHead columns={['Name', { label: 'Starts with', style: NOWRAP }, 'Holder', 'Status', 'Last used']} actions />
              <Table.Tbody>
                {keys.data.map((k) => (
                  <Table.Tr key={k.id}>
                    <Table.Td>{k.name}</Table.Td>
                    <Table.Td style={NOWRAP}>
                      <Code>{k.prefix}</Code>
                    </Table.Td>
                    <Table.Td>{k.user.email}</Table.Td>
                    <Table.Td style={NOWRAP}>
                      <Badge color={k.status === 'active' ? 'green' : 'red'} variant="light" styles={BADGE_STYLES}>
                        {k.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td style={NOWRAP}>{when(k.last_used_at)}</Table.Td>
                    <Table.Td>
                      {k.status === 'active' && (managesAll || k.user.id === session.user.id) && (
                        <Button size="compact-sm" variant="default" color="red" aria-label={`Revoke key ${credentialLabel(k)}`} onClick={() => revoke.ask(k)}>
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
      {stepUp.modal}
      <ShownOnceModal title="Your new API key" what="key" secrets={shown ? [shown.key] : null} onClose={closeShown} />
      <ConfirmModal {...revoke.modal} title={`Revoke key ${revoke.target ? credentialLabel(revoke.target) : ''}?`} confirmLabel="Revoke">
        {revoke.target && revoke.target.user.id !== session.user.id ? `It belongs to ${revoke.target.user.email}. ` : ''}Anything using it is refused from now
        on. This cannot be undone.
      </ConfirmModal>
    </Card>
  );
}
