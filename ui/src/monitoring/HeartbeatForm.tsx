import { Alert, Button, Card, Code, CopyButton, Group, NumberInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useAction } from '../api/hooks';
import { FormError } from '../components/PageStates';
import { formatSeconds } from './durations';
import { heartbeatBody, NEW_HEARTBEAT, type HeartbeatFormValues } from './heartbeats';
import type { CreatedHeartbeat, Service } from './types';

/** Creates a heartbeat, then shows its ping URL, which the API gives this once only. */
export function HeartbeatForm({ services }: { services: Service[] }) {
  const [values, setValues] = useState<HeartbeatFormValues>(NEW_HEARTBEAT);
  const [created, setCreated] = useState<CreatedHeartbeat | null>(null);
  const create = useAction(async (body: Record<string, unknown>) => (await api<CreatedHeartbeat>('POST', '/heartbeats', body)).data, {
    invalidate: [['heartbeats'], ['uptime']],
    onSuccess: (hb) => {
      setCreated(hb);
      setValues({ ...NEW_HEARTBEAT, service_id: values.service_id });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(heartbeatBody(values));
  };
  const seconds = (v: number | string) => (typeof v === 'number' ? formatSeconds(v) : undefined);
  return (
    <Card withBorder component="form" onSubmit={submit} aria-label="New heartbeat">
      <Stack gap="sm">
        <Title order={4}>New heartbeat</Title>
        <Text size="sm" c="dimmed">
          A cron job or backup pings its URL every period; a missed check-in (period + grace) opens an incident on the service.
        </Text>
        <FormError message={create.formError} />
        <Group align="start" wrap="wrap">
          <TextInput
            label="Name"
            required
            value={values.name}
            onChange={(e) => setValues({ ...values, name: e.currentTarget.value })}
            error={create.fieldError('name')}
          />
          <Select
            label="Service"
            required
            data={services.map((s) => ({ value: s.id, label: s.name }))}
            value={values.service_id || null}
            onChange={(v) => setValues({ ...values, service_id: v ?? '' })}
            error={create.fieldError('service_id')}
          />
          <NumberInput
            label="Period (seconds)"
            required
            min={1}
            allowDecimal={false}
            value={values.period_seconds}
            onChange={(v) => setValues({ ...values, period_seconds: v })}
            description={seconds(values.period_seconds)}
            error={create.fieldError('period_seconds')}
            w={170}
          />
          <NumberInput
            label="Grace (seconds)"
            min={0}
            allowDecimal={false}
            value={values.grace_seconds}
            onChange={(v) => setValues({ ...values, grace_seconds: v })}
            description={seconds(values.grace_seconds)}
            error={create.fieldError('grace_seconds')}
            w={170}
          />
        </Group>
        <Group>
          <Button type="submit" loading={create.isPending}>
            Create heartbeat
          </Button>
        </Group>
        {created && (
          <Alert color="green" title={`Ping URL of ${created.name}`} withCloseButton closeButtonLabel="Hide the ping URL" onClose={() => setCreated(null)}>
            <Stack gap="xs">
              <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                {created.ping_url}
              </Code>
              <Text size="sm">Keep it now: it is not shown again. GET, HEAD or POST it every {formatSeconds(created.period_seconds)}.</Text>
              <CopyButton value={created.ping_url}>
                {({ copied, copy }) => (
                  <Button size="compact-sm" variant="default" onClick={copy} aria-label={`Copy the ping URL of ${created.name}`}>
                    {copied ? 'Copied' : 'Copy ping URL'}
                  </Button>
                )}
              </CopyButton>
            </Stack>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
