import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useCallback, useRef, useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery, useSession } from '../api/hooks';
import { factorBody, type FactorBody, type FactorKind } from './factor';
import { FactorInput } from './FactorInput';
import type { TwoFactorStatus } from './types';

/**
 * "Confirm it is you" for sensitive requests. `confirm()` opens the dialog and resolves true once
 * `POST /api/auth/step-up` accepted a factor, false when the person cancels; pass it to
 * `withStepUp`. Render `modal` somewhere in the page.
 */
export function useStepUp(reason: string, opts: { go?: (url: string) => void } = {}) {
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const [opened, setOpened] = useState(false);
  const confirm = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        resolver.current = resolve;
        setOpened(true);
      }),
    [],
  );
  const done = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setOpened(false);
  };
  return { confirm, modal: <StepUpModal opened={opened} reason={reason} onDone={done} go={opts.go} /> };
}

/** Leaves the dashboard for the identity provider (a prop in tests: jsdom cannot navigate). */
const leaveFor = (url: string) => window.location.assign(url);

function StepUpModal({
  opened,
  reason,
  onDone,
  go = leaveFor,
}: {
  opened: boolean;
  reason: string;
  onDone: (ok: boolean) => void;
  go?: (url: string) => void;
}) {
  const twoFactor = useApiQuery<TwoFactorStatus>(['two-factor'], '/auth/2fa', { enabled: opened });
  // BUSINESS workspaces may sign in with SSO: someone without a password confirms at the IdP
  // (docs/sso.md, "Step-up"), then comes back to / with 5 minutes before being asked again.
  const session = useSession();
  const atIdp = useAction(() => api<{ redirect_url: string }>('POST', '/auth/sso/step-up'), { onSuccess: (res) => go(res.data.redirect_url) });
  const [kind, setKind] = useState<FactorKind>('password');
  const [value, setValue] = useState('');
  const stepUp = useAction((body: FactorBody) => api('POST', '/auth/step-up', body));
  const finish = (ok: boolean) => {
    setValue('');
    stepUp.reset();
    onDone(ok);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    stepUp.mutate(factorBody(kind, value), { onSuccess: () => finish(true) });
  };
  return (
    <Modal opened={opened} onClose={() => finish(false)} title="Confirm it is you" centered>
      <Stack component="form" onSubmit={submit} aria-label="Confirm it is you">
        <Text size="sm">{reason}. You will not be asked again for 5 minutes.</Text>
        <FactorInput
          twoFactor={twoFactor.data?.enabled ?? false}
          kind={kind}
          onKind={(k) => {
            setKind(k);
            setValue('');
            stepUp.reset();
          }}
          value={value}
          onValue={setValue}
          error={stepUp.errorMessage}
        />
        {session.data?.organization.plan === 'BUSINESS' && (
          <Stack gap={4}>
            <Button variant="subtle" size="compact-sm" loading={atIdp.isPending} onClick={() => atIdp.mutate()}>
              Signed in with single sign-on? Confirm at your identity provider
            </Button>
            {atIdp.errorMessage && (
              <Text size="xs" c="red" role="alert">
                {atIdp.errorMessage}
              </Text>
            )}
          </Stack>
        )}
        <Group justify="flex-end" wrap="wrap">
          <Button variant="default" onClick={() => finish(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={stepUp.isPending}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
