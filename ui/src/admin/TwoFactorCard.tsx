import { Badge, Button, Card, Code, CopyButton, Group, Image, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import type { SessionView } from '../api/types';
import { LoadError, Loading } from '../components/PageStates';
import { factorBody, StepUpCancelled, withStepUp, type FactorBody, type FactorKind } from './factor';
import { FactorInput } from './FactorInput';
import { adoptRotatedSession } from './session';
import { ShownOnceModal } from './ShownOnceModal';
import { useStepUp } from './StepUp';
import type { TwoFactorSetup, TwoFactorStatus } from './types';

// Shown as an image: an <img> never runs what an SVG may contain, unlike inlining its markup.
const svgSource = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/** Two-factor authentication: enrol (QR code, secret, confirm with a code), recovery codes, turn off. */
export function TwoFactorCard() {
  const client = useQueryClient();
  const status = useApiQuery<TwoFactorStatus>(['two-factor'], '/auth/2fa');
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const stepUp = useStepUp('New recovery codes need your confirmation');
  const setupStepUp = useStepUp('Setting up two-factor needs your confirmation');
  const refresh = [['two-factor'], ['members']];

  // The server asks for a step-up first (a borrowed session must not enrol its holder's authenticator).
  const start = useAction(() => withStepUp(async () => (await api<TwoFactorSetup>('POST', '/auth/2fa/setup', {})).data, setupStepUp.confirm), {
    onSuccess: (s) => {
      setSetup(s);
      setCode('');
    },
  });
  const confirm = useAction(async (c: string) => (await api<SessionView & { recovery_codes: string[] }>('POST', '/auth/2fa/confirm', { code: c })).data, {
    invalidate: refresh,
    onSuccess: ({ recovery_codes, ...view }) => {
      adoptRotatedSession(client, view);
      setSetup(null);
      setCodes(recovery_codes);
    },
  });
  const regenerate = useAction(
    () => withStepUp(async () => (await api<{ recovery_codes: string[] }>('POST', '/auth/2fa/recovery-codes', {})).data, stepUp.confirm),
    {
      invalidate: refresh,
      onSuccess: (res) => setCodes(res.recovery_codes),
    },
  );
  const closeCodes = () => {
    setCodes(null);
    confirm.reset();
    regenerate.reset();
  };
  const submitCode = (e: FormEvent) => {
    e.preventDefault();
    confirm.mutate(code.replace(/\s+/g, ''));
  };

  return (
    <Card withBorder>
      <Stack>
        <Group gap="xs">
          <Title order={3} size="h4">
            Two-factor authentication
          </Title>
          {status.data && (
            <Badge color={status.data.enabled ? 'green' : 'gray'} variant="light">
              {status.data.enabled ? 'on' : 'off'}
            </Badge>
          )}
        </Group>
        {status.isPending ? (
          <Loading what="two-factor status" />
        ) : status.error ? (
          <LoadError what="two-factor status" error={status.error} />
        ) : status.data.enabled ? (
          <>
            <Text size="sm">
              On since {status.data.enabled_at ? new Date(status.data.enabled_at).toLocaleDateString() : '—'}. Logging in asks for a code from your
              authenticator app. {status.data.recovery_codes_left} of 10 recovery codes left.
            </Text>
            <Group wrap="wrap">
              <Button
                variant="default"
                loading={regenerate.isPending}
                onClick={() => regenerate.mutate(undefined, { onError: (err) => err instanceof StepUpCancelled && regenerate.reset() })}
              >
                New recovery codes
              </Button>
              <Button variant="default" color="red" onClick={() => setDisabling(true)}>
                Turn off two-factor
              </Button>
            </Group>
            {regenerate.errorMessage && !(regenerate.error instanceof StepUpCancelled) && (
              <Text size="sm" c="red" role="alert">
                {regenerate.errorMessage}
              </Text>
            )}
          </>
        ) : setup ? (
          <Stack component="form" onSubmit={submitCode} aria-label="Confirm two-factor" gap="sm">
            <Text size="sm">1. Scan this QR code with an authenticator app (1Password, Google Authenticator, Aegis…).</Text>
            <Image src={svgSource(setup.qr_svg)} alt="QR code to scan with your authenticator app" w={200} h={200} fit="contain" bg="white" p={4} />
            <Text size="sm">Or enter this key by hand:</Text>
            <Group gap="xs" wrap="wrap">
              <Code aria-label="Secret key" style={{ overflowWrap: 'anywhere' }}>
                {setup.secret}
              </Code>
              <CopyButton value={setup.secret}>
                {({ copied, copy }) => (
                  <Button size="compact-sm" variant="default" onClick={copy}>
                    {copied ? 'Copied' : 'Copy the key'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Text size="sm">2. Enter the 6-digit code the app shows.</Text>
            <Group align="flex-start" wrap="wrap">
              <TextInput
                label="Code from your authenticator app"
                autoComplete="one-time-code"
                inputMode="numeric"
                required
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                error={confirm.errorMessage}
              />
            </Group>
            <Group wrap="wrap">
              <Button type="submit" loading={confirm.isPending}>
                Turn on two-factor
              </Button>
              <Button variant="default" onClick={() => setSetup(null)}>
                Cancel
              </Button>
            </Group>
          </Stack>
        ) : (
          <>
            <Text size="sm">Two-factor is off: your password alone logs you in. Turn it on to be asked for a code from an authenticator app as well.</Text>
            <Group>
              <Button onClick={() => start.mutate(undefined, { onError: (err) => err instanceof StepUpCancelled && start.reset() })} loading={start.isPending}>
                Set up two-factor
              </Button>
            </Group>
            {start.errorMessage && !(start.error instanceof StepUpCancelled) && (
              <Text size="sm" c="red" role="alert">
                {start.errorMessage}
              </Text>
            )}
          </>
        )}
      </Stack>
      {stepUp.modal}
      {setupStepUp.modal}
      <ShownOnceModal title="Your recovery codes" what="recovery codes" secrets={codes} onClose={closeCodes} />
      <DisableModal opened={disabling} onClose={() => setDisabling(false)} />
    </Card>
  );
}

/** Turning two-factor off always takes a factor in the request itself (a recent step-up is not enough). */
function DisableModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [kind, setKind] = useState<FactorKind>('password');
  const [value, setValue] = useState('');
  const disable = useAction((body: FactorBody) => api('POST', '/auth/2fa/disable', body), {
    invalidate: [['two-factor'], ['members']],
    onSuccess: () => close(),
  });
  const close = () => {
    setValue('');
    disable.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    disable.mutate(factorBody(kind, value));
  };
  return (
    <Modal opened={opened} onClose={close} title="Turn off two-factor?" centered>
      <Stack component="form" onSubmit={submit} aria-label="Turn off two-factor">
        <Text size="sm">Logging in will need only your password, and your recovery codes are deleted. Confirm it is you:</Text>
        <FactorInput
          twoFactor
          kind={kind}
          onKind={(k) => {
            setKind(k);
            setValue('');
            disable.reset();
          }}
          value={value}
          onValue={setValue}
          error={disable.errorMessage}
        />
        <Group justify="flex-end" wrap="wrap">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={disable.isPending}>
            Turn off
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
