import { Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import { StepUpCancelled, withStepUp } from '../admin/factor';
import { ShownOnceModal } from '../admin/ShownOnceModal';
import { useStepUp } from '../admin/StepUp';
import { ConfirmModal } from '../components/ConfirmModal';
import { FormError, LoadError, Loading } from '../components/PageStates';
import { useConfirmedAction } from '../components/useConfirmedAction';

/** `GET /api/sso/scim-token`: never the token itself. */
export interface ScimTokenStatus {
  configured: boolean;
  prefix: string | null;
  created_at: string | null;
}

const KEY = ['sso', 'scim-token'];

/**
 * The workspace's SCIM token (docs/scim.md): the identity provider's key to add and remove
 * members. Creating one needs a step-up and shows it once; afterwards only its first characters
 * are shown; revoking stops it at once. `planAllows` false (a plan without SCIM): nothing to
 * create, but a token left from a paid plan can still be revoked.
 */
export function ScimTokenCard({ planAllows }: { planAllows: boolean }) {
  const status = useApiQuery<ScimTokenStatus>(KEY, '/sso/scim-token');
  const stepUp = useStepUp('Creating a SCIM token needs your confirmation');
  const [shown, setShown] = useState<string | null>(null);
  const issue = useAction(() => withStepUp(async () => (await api<{ token: string }>('POST', '/sso/scim-token', {})).data, stepUp.confirm), {
    invalidate: [KEY],
    onSuccess: (data) => setShown(data.token),
  });
  const revoke = useConfirmedAction(() => api('DELETE', '/sso/scim-token'), { invalidate: [KEY] });
  const create = () => issue.mutate(undefined, { onError: (err) => err instanceof StepUpCancelled && issue.reset() });
  const closeShown = () => {
    setShown(null);
    issue.reset(); // the mutation keeps its answer, the token included: drop it too
  };

  if (!planAllows && !status.data?.configured) return null;
  const token = status.data;
  return (
    <Card withBorder component="section" aria-label="SCIM provisioning">
      <Stack gap="sm">
        <Title order={3} size="h4">
          SCIM provisioning
        </Title>
        <Text size="sm">
          Your identity provider can add members, remove them and keep teams in step through SCIM 2.0 at <Code>{`${window.location.origin}/scim/v2`}</Code>,
          with this workspace&apos;s token as its bearer token.
        </Text>
        {status.isPending ? (
          <Loading what="the SCIM token" />
        ) : status.error ? (
          <LoadError what="the SCIM token" error={status.error} />
        ) : token?.configured ? (
          <Text size="sm">
            A token starting <Code>{token.prefix}</Code> is in use, created {token.created_at ? new Date(token.created_at).toLocaleString() : ''}.
            {planAllows ? ' Creating a new one stops it at once.' : ' This plan has no SCIM: revoke it, or move to Business to use it.'}
          </Text>
        ) : (
          <Text size="sm">No SCIM token yet: nothing can provision members.</Text>
        )}
        <FormError message={issue.errorMessage} />
        <Group>
          {planAllows && (
            <Button loading={issue.isPending} onClick={create} disabled={status.isPending}>
              {token?.configured ? 'Create a new SCIM token' : 'Create a SCIM token'}
            </Button>
          )}
          {token?.configured && (
            <Button color="red" variant="subtle" onClick={() => revoke.ask(true)}>
              Revoke the SCIM token
            </Button>
          )}
        </Group>
      </Stack>
      <ConfirmModal {...revoke.modal} title="Revoke the SCIM token?" confirmLabel="Revoke">
        Your identity provider can no longer add or remove members until you create a new token and give it to it. Members stay as they are.
      </ConfirmModal>
      <ShownOnceModal title="Your SCIM token" what="SCIM token" secrets={shown === null ? null : [shown]} onClose={closeShown} />
      {stepUp.modal}
    </Card>
  );
}
