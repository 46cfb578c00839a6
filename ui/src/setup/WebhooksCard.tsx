import { Badge, Button, Card, Checkbox, CopyButton, Group, Select, Table, Text, TextInput, Title } from '@mantine/core';
import { PHONE_CARDS, PhoneCardsContainer } from '../components/ResponsiveTable';
import { useState } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import { useWebhooks } from './webhooks-query';
import { CompatIntake } from './CompatIntake';
import { Empty, FormError } from '../components/PageStates';
import type { Service, TestResult, Webhook } from './types';

const NOTIFICATION_TYPES = [
  { value: 'EMAIL', label: 'Email' },
  { value: 'SMS', label: 'SMS' },
  { value: 'PUSH_NOTIF', label: 'Push' },
  { value: 'CALL', label: 'Voice call' },
];

/** What "Notify by" does, in the words of docs/architecture.md ("Inbound webhooks"). */
export const NOTIFY_BY_HELP =
  "Limits which of each person's notification rules apply: people are paged by their own rules on the checked channels only (texts from medium severity up, calls for critical alerts only).";

/**
 * Webhooks (alert sources): create, copy the ingestion URL (and the routing key and URLs of the
 * PagerDuty- and Opsgenie-compatible intakes), test, pause, rotate, delete.
 */
export function WebhooksCard() {
  const services = useApiQuery<Service[]>(['services'], '/services');
  const webhooks = useWebhooks();
  // Every channel by default: a webhook then applies each person's rules as they are (within what the severity allows).
  const [form, setForm] = useState({ name: '', types: NOTIFICATION_TYPES.map((t) => t.value), service_id: '' });
  const [tested, setTested] = useState<Record<string, TestResult[] | string>>({});
  const [confirming, setConfirming] = useState<string | null>(null);
  const invalidate = { invalidate: [['webhooks']] };
  const create = useAction(
    () => api('POST', '/webhooks', { name: form.name, notificationTypes: form.types, ...(form.service_id ? { service_id: form.service_id } : {}) }),
    { ...invalidate, onSuccess: () => setForm({ ...form, name: '' }) },
  );
  const pause = useAction((w: Webhook) => api('PUT', `/sources/${w.id}`, { status: w.status === 'ACTIVE' ? 'PAUSED' : 'ACTIVE' }), invalidate);
  const rotate = useAction((id: string) => api('POST', `/sources/${id}/rotate`), { ...invalidate, onSuccess: () => setConfirming(null) });
  const remove = useAction((id: string) => api('DELETE', `/webhooks/${id}`), { ...invalidate, onSuccess: () => setConfirming(null) });
  const test = useAction((id: string) => api<{ sends: TestResult[] }>('POST', `/webhooks/${id}/test`), {
    onSuccess: (res, id) => setTested((t) => ({ ...t, [id]: res.data.sends })),
  });
  const testError = test.isError && test.variables ? { [test.variables]: test.errorMessage } : {};
  const serviceOptions = (services.data ?? []).map((s) => ({ value: s.id, label: s.name }));
  const ask = (key: string, run: () => void) => (confirming === key ? run() : setConfirming(key));

  return (
    <Card
      withBorder
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
      aria-label="New webhook"
    >
      <Title order={3} size="h4">
        Webhooks
      </Title>
      <FormError message={create.formError ?? pause.errorMessage ?? rotate.errorMessage ?? remove.errorMessage} />
      <Group align="end" mt="xs" wrap="wrap">
        <TextInput
          label="Webhook name"
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
          error={create.fieldError('name')}
        />
        <Checkbox.Group
          label="Notify by"
          description={NOTIFY_BY_HELP}
          value={form.types}
          onChange={(types) => setForm({ ...form, types })}
          error={create.fieldError('notificationTypes')}
          maw={420}
        >
          <Group gap="sm" mt={6}>
            {NOTIFICATION_TYPES.map((t) => (
              <Checkbox key={t.value} value={t.value} label={t.label} />
            ))}
          </Group>
        </Checkbox.Group>
        {/* With one service the server takes it: the placeholder says which. */}
        <Select
          label="Service"
          placeholder={services.data?.length === 1 ? services.data[0].name : 'Choose one'}
          data={serviceOptions}
          value={form.service_id || null}
          onChange={(v) => setForm({ ...form, service_id: v ?? '' })}
          clearable
          error={create.fieldError('service_id')}
        />
        <Button type="submit" loading={create.isPending}>
          Create webhook
        </Button>
      </Group>
      {webhooks.data?.length === 0 && <Empty>No webhook yet. Create one and post alerts to its URL.</Empty>}
      <PhoneCardsContainer minWidth={640} mt="md">
        <Table aria-label="Webhooks" className={PHONE_CARDS}>
          <Table.Tbody>
            {webhooks.data?.map((w) => {
              const results = tested[w.id];
              return (
                <Table.Tr key={w.id}>
                  <Table.Td>
                    {w.name}{' '}
                    {w.status === 'PAUSED' && (
                      <Badge color="gray" size="sm">
                        paused
                      </Badge>
                    )}
                    {w.in_storm && (
                      <Badge color="orange" size="sm" title="Its new alerts join its storm incident, which paged once (docs/grouping.md)">
                        in storm
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{w.notification_types.join(', ')}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="wrap">
                      {w.webhook_url && (
                        <CopyButton value={w.webhook_url}>
                          {({ copied, copy }) => (
                            <Button size="compact-sm" variant="default" onClick={copy} aria-label={`Copy the ingestion URL of ${w.name}`}>
                              {copied ? 'Copied' : 'Copy URL'}
                            </Button>
                          )}
                        </CopyButton>
                      )}
                      <Button size="compact-sm" variant="default" onClick={() => test.mutate(w.id)} aria-label={`Send a test notification for ${w.name}`}>
                        Test
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="default"
                        onClick={() => pause.mutate(w)}
                        aria-label={`${w.status === 'ACTIVE' ? 'Pause' : 'Resume'} ${w.name}`}
                      >
                        {w.status === 'ACTIVE' ? 'Pause' : 'Resume'}
                      </Button>
                      <Button
                        size="compact-sm"
                        variant={confirming === `rotate:${w.id}` ? 'filled' : 'default'}
                        color="orange"
                        onClick={() => ask(`rotate:${w.id}`, () => rotate.mutate(w.id))}
                        aria-label={confirming === `rotate:${w.id}` ? `Confirm: rotate the URL of ${w.name}` : `Rotate the URL of ${w.name}`}
                      >
                        {confirming === `rotate:${w.id}` ? 'Old URL and key stop at once: rotate?' : 'Rotate URL'}
                      </Button>
                      <Button
                        size="compact-sm"
                        variant={confirming === `delete:${w.id}` ? 'filled' : 'default'}
                        color="red"
                        onClick={() => ask(`delete:${w.id}`, () => remove.mutate(w.id))}
                        aria-label={confirming === `delete:${w.id}` ? `Confirm: delete ${w.name}` : `Delete ${w.name}`}
                      >
                        {confirming === `delete:${w.id}` ? 'Delete for good?' : 'Delete'}
                      </Button>
                    </Group>
                    {w.routing_key && <CompatIntake name={w.name} routingKey={w.routing_key} webhookUrl={w.webhook_url} />}
                    {testError[w.id] && (
                      <Text size="xs" c="red">
                        {testError[w.id]}
                      </Text>
                    )}
                    {Array.isArray(results) &&
                      results.map((r) => (
                        <Text size="xs" key={r.notification_type}>
                          {r.notification_type}: {r.status}
                          {r.to ? ` to ${r.to}` : ''}
                          {r.channel !== r.notification_type.toLowerCase() ? ` (by ${r.channel})` : ''}
                          {r.error ? ` (${r.error})` : ''}
                        </Text>
                      ))}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </PhoneCardsContainer>
    </Card>
  );
}
