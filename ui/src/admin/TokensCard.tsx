import { Alert, Badge, Button, Card, Code, Group, NumberInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import type { SessionView } from '../api/types';
import { Empty, FormError, LoadError, Loading } from '../components/PageStates';
import { ConfirmModal } from '../components/ConfirmModal';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { ACCESS_OPTIONS, credentialLabel, TOKEN_MAX_DAYS, tokenBody, when, type TokenForm } from './credentials';
import { codeOf } from './errors';
import { StepUpCancelled, withStepUp } from './factor';
import { canManageApiTokens } from './roles';
import { ShownOnceModal } from './ShownOnceModal';
import { useStepUp } from './StepUp';
import type { ApiToken, NewApiToken, PlanView } from './types';
import { VerifyEmailNotice } from './VerifyEmailNotice';
import { TableHead } from '../components/TableHead';

const STATUS_COLORS = { active: 'green', expired: 'gray', revoked: 'red' } as const;
const NOWRAP = { whiteSpace: 'nowrap' } as const;
// A badge's label clips (overflow: hidden), so a table column would shrink it to "ACT…": let it set the width.
const BADGE_STYLES = { label: { overflow: 'visible' } } as const;
const EMPTY_FORM: TokenForm = { name: '', access: 'READ_ONLY', days: 7 };

/** Customer API tokens (`/api/v1`): list, create behind a step-up with the plaintext shown once, revoke. */
export function TokensCard({ session }: { session: SessionView }) {
  const allowed = canManageApiTokens(session.role);
  const tokens = useApiQuery<ApiToken[]>(['api-tokens'], '/tokens', { enabled: allowed });
  const plan = useApiQuery<PlanView>(['plan'], '/plan', { enabled: allowed });
  const stepUp = useStepUp('Creating an API token needs your confirmation');
  const [form, setForm] = useState<TokenForm>(EMPTY_FORM);
  const [shown, setShown] = useState<NewApiToken | null>(null);

  const create = useAction(
    (body: ReturnType<typeof tokenBody>) => withStepUp(async () => (await api<NewApiToken>('POST', '/tokens', body)).data, stepUp.confirm),
    {
      invalidate: [['api-tokens']],
      onSuccess: (token) => {
        setShown(token);
        setForm(EMPTY_FORM);
      },
    },
  );
  const revoke = useConfirmedAction((t: ApiToken) => api('DELETE', `/tokens/${t.id}`), { invalidate: [['api-tokens']] });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(tokenBody(form), { onError: (err) => err instanceof StepUpCancelled && create.reset() });
  };
  const closeShown = () => {
    setShown(null);
    create.reset(); // the mutation keeps its answer, plaintext included: drop it too
  };

  if (!allowed) {
    return (
      <Card withBorder>
        <Title order={3} size="h4">
          Customer API tokens
        </Title>
        <Empty>Only Billing Owners and Account Admins manage customer API tokens. Ask one of them for a token, or create an API key for yourself below.</Empty>
      </Card>
    );
  }
  const noApiAccess = plan.data && !plan.data.limits.api_access;
  // The page says it once when the session knows; this covers a session that thought otherwise.
  const unverified = session.user.verified && codeOf(create.error) === 'email_unverified';
  return (
    <Card withBorder>
      <Stack>
        <div>
          <Title order={3} size="h4">
            Customer API tokens
          </Title>
          <Text size="sm" c="dimmed">
            Bearer tokens for the customer API (<Code>/api/v1</Code>). They expire after at most {TOKEN_MAX_DAYS} days.
          </Text>
        </div>
        {noApiAccess && (
          <Alert color="yellow" title="No API access on this plan">
            The {plan.data?.plan} plan does not include the customer API; PRO and BUSINESS do. Existing tokens can still be revoked.
          </Alert>
        )}
        {unverified && <VerifyEmailNotice what="create API tokens" />}
        <Stack component="form" onSubmit={submit} aria-label="New API token" gap="xs">
          <Group align="flex-start" wrap="wrap">
            <TextInput
              label="Token name"
              placeholder="grafana"
              maxLength={100}
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
              error={create.fieldError('name')}
            />
            <Select
              label="Access"
              data={ACCESS_OPTIONS}
              value={form.access}
              allowDeselect={false}
              onChange={(v) => v && setForm({ ...form, access: v as TokenForm['access'] })}
              error={create.fieldError('access')}
              w={170}
            />
            <NumberInput
              label="Expires after (days)"
              min={1}
              max={TOKEN_MAX_DAYS}
              allowDecimal={false}
              value={form.days}
              onChange={(days) => setForm({ ...form, days })}
              error={create.fieldError('days')}
              w={170}
            />
          </Group>
          <Group>
            <Button type="submit" loading={create.isPending} disabled={noApiAccess}>
              Create token
            </Button>
          </Group>
          {codeOf(create.error) !== 'email_unverified' && <FormError message={create.formError} />}
        </Stack>
        {tokens.isPending ? (
          <Loading what="API tokens" />
        ) : tokens.error ? (
          <LoadError what="API tokens" error={tokens.error} />
        ) : tokens.data.length === 0 ? (
          <Empty>No API tokens yet. Create one above for a script or a tool that reads or changes incidents through the customer API.</Empty>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table aria-label="API tokens" verticalSpacing="xs">
              <TableHead columns={['Name', { label: 'Starts with', style: NOWRAP }, 'Access', 'Holder', 'Status', 'Expires']} actions />
              <Table.Tbody>
                {tokens.data.map((t) => (
                  <Table.Tr key={t.id}>
                    <Table.Td>
                      {t.name ?? (
                        <Text span c="dimmed" size="sm">
                          unnamed
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td style={NOWRAP}>
                      <Code>{t.prefix}</Code>
                    </Table.Td>
                    <Table.Td>{ACCESS_OPTIONS.find((o) => o.value === t.access)?.label}</Table.Td>
                    <Table.Td>{t.user.email}</Table.Td>
                    <Table.Td style={NOWRAP}>
                      <Badge color={STATUS_COLORS[t.status]} variant="light" styles={BADGE_STYLES}>
                        {t.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td style={NOWRAP}>{when(t.expires_at)}</Table.Td>
                    <Table.Td>
                      {t.status === 'active' && (
                        <Button size="compact-sm" variant="default" color="red" aria-label={`Revoke token ${credentialLabel(t)}`} onClick={() => revoke.ask(t)}>
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
      <ShownOnceModal title="Your new API token" what="token" secrets={shown ? [shown.token] : null} onClose={closeShown} />
      <ConfirmModal {...revoke.modal} title={`Revoke token ${revoke.target ? credentialLabel(revoke.target) : ''}?`} confirmLabel="Revoke">
        Anything using it is refused (401) from now on. This cannot be undone.
      </ConfirmModal>
    </Card>
  );
}
