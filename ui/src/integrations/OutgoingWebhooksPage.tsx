import { Alert, Badge, Button, Card, Code, Group, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { can } from '../../../src/domain/permissions';
import { api } from '../api/client';
import { useApiQuery, useSession } from '../api/hooks';
import { ShownOnceModal } from '../admin/ShownOnceModal';
import { ConfirmModal } from '../components/ConfirmModal';
import { Empty, FormError, LoadError, Loading } from '../components/PageStates';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { DeliveriesLog } from './DeliveriesLog';
import { bodyOf, EMPTY_FORM, formOf, takesAllEvents, type SubscriptionForm } from './outgoing-webhooks';
import { OUTGOING_KEY, useOutgoingWebhookActions, useOutgoingWebhooks } from './outgoing-webhooks-query';
import { SubscriptionFields } from './SubscriptionFields';
import type { NewOutgoingWebhook, OutgoingWebhook } from './types';

/**
 * Outgoing webhooks (docs/api/outgoing-webhooks.md): the workspace's endpoints that receive
 * incident events, signed. Create (the signing secret shown once), edit, enable or disable,
 * delete, send a test ping, and each one's deliveries with "Redeliver".
 */
export function OutgoingWebhooksPage() {
  const session = useSession();
  const role = session.data?.role;
  // A Team Manager manages subscriptions limited to their teams' services; a Member none.
  const allowed = role !== undefined && can(role, 'outgoing_webhooks.manage', { inOwningTeam: true });
  const hooks = useOutgoingWebhooks(allowed);
  const services = useApiQuery<Array<{ id: string; name: string }>>(['services'], '/services', { enabled: allowed });
  const [form, setForm] = useState<SubscriptionForm>(EMPTY_FORM);
  const [shown, setShown] = useState<NewOutgoingWebhook | null>(null);
  const [editing, setEditing] = useState<{ hook: OutgoingWebhook; form: SubscriptionForm } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const actions = useOutgoingWebhookActions({
    onCreated: (h) => {
      setShown(h);
      setForm(EMPTY_FORM);
      setOpen(h.id);
    },
    onSaved: () => setEditing(null),
  });
  const { create, update, test } = actions;
  const remove = useConfirmedAction((h: OutgoingWebhook) => api('DELETE', `/outgoing-webhooks/${h.id}`), { invalidate: [[...OUTGOING_KEY]] });

  if (session.isPending) return <Loading what="your session" />;
  const header = (
    <Stack gap={4}>
      <Title order={2}>Outgoing webhooks</Title>
      <Text size="sm" c="dimmed">
        Your endpoints that receive every change of an incident as it happens, signed with the subscription’s secret (<Code>webhook-signature</Code>, Standard
        Webhooks). Not to be confused with the webhooks on “Set up”, which are alert sources.
      </Text>
    </Stack>
  );
  if (!allowed) {
    return (
      <Stack maw={1200}>
        {header}
        <Empty>Only Billing Owners, Account Admins and Team Managers manage outgoing webhooks. Ask one of them.</Empty>
      </Stack>
    );
  }
  const free = session.data?.organization.plan === 'FREE';
  const serviceName = new Map((services.data ?? []).map((s) => [s.id, s.name]));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(bodyOf(form));
  };
  const closeShown = () => {
    setShown(null);
    create.reset(); // the mutation keeps its answer, secret included: drop it too
  };
  const saveEdit = (e: FormEvent) => {
    e.preventDefault();
    if (editing) update.mutate({ id: editing.hook.id, body: bodyOf(editing.form) });
  };
  const setEnabled = (h: OutgoingWebhook, enabled: boolean) => update.mutate({ id: h.id, body: { enabled } });

  return (
    <Stack gap="lg" maw={1200}>
      {header}
      {free && (
        <Alert color="yellow" title="Not on the FREE plan">
          Outgoing webhooks come with STARTER and above (STARTER 5, PRO 20, BUSINESS 100).
        </Alert>
      )}
      <Card withBorder>
        <Stack component="form" onSubmit={submit} aria-label="New outgoing webhook" gap="xs">
          <Title order={3} size="h4">
            New outgoing webhook
          </Title>
          {role === 'TEAM_MANAGER' && (
            <Text size="sm" c="dimmed">
              As a Team Manager, choose services your teams own.
            </Text>
          )}
          <SubscriptionFields form={form} onChange={setForm} services={services.data ?? []} action={create} />
          <Group>
            <Button type="submit" loading={create.isPending} disabled={free}>
              Create outgoing webhook
            </Button>
          </Group>
          <FormError message={create.formError} />
        </Stack>
      </Card>
      <LoadError what="outgoing webhooks" error={hooks.error} />
      {update.formError && !editing && <FormError message={update.formError} />}
      {test.errorMessage && <FormError message={test.errorMessage} />}
      {hooks.isPending ? (
        <Loading what="outgoing webhooks" />
      ) : !hooks.data?.length ? (
        <Empty>No outgoing webhooks yet. Create one above to send incident events to your own systems.</Empty>
      ) : (
        <Stack aria-label="Outgoing webhooks" component="section">
          {hooks.data.map((h) => (
            <Card key={h.id} withBorder aria-label={`Outgoing webhook ${h.url}`} component="article">
              <Stack gap="xs">
                <Group justify="space-between" wrap="wrap" align="flex-start">
                  <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {h.url}
                    </Text>
                    {h.description && (
                      <Text size="sm" c="dimmed">
                        {h.description}
                      </Text>
                    )}
                    <Group gap={6} wrap="wrap">
                      <Badge variant="light" color={h.enabled ? 'green' : 'gray'}>
                        {h.enabled ? 'enabled' : 'disabled'}
                      </Badge>
                      <Badge variant="outline">{takesAllEvents(h) ? 'all events' : h.event_types.join(', ')}</Badge>
                      <Badge variant="outline">{h.service_ids.length ? h.service_ids.map((id) => serviceName.get(id) ?? id).join(', ') : 'all services'}</Badge>
                    </Group>
                  </Stack>
                  <Group gap="xs" wrap="wrap">
                    <Switch label="Enabled" checked={h.enabled} aria-label={`Enabled: ${h.url}`} onChange={(e) => setEnabled(h, e.currentTarget.checked)} />
                    <Button
                      size="compact-sm"
                      variant="default"
                      loading={test.isPending && test.variables === h.id}
                      onClick={() => test.mutate(h.id, { onSuccess: () => setOpen(h.id) })}
                    >
                      Send test
                    </Button>
                    <Button size="compact-sm" variant="default" aria-expanded={open === h.id} onClick={() => setOpen(open === h.id ? null : h.id)}>
                      Deliveries
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="default"
                      onClick={() => {
                        update.reset();
                        setEditing({ hook: h, form: formOf(h) });
                      }}
                    >
                      Edit
                    </Button>
                    <Button size="compact-sm" variant="default" color="red" aria-label={`Delete outgoing webhook ${h.url}`} onClick={() => remove.ask(h)}>
                      Delete
                    </Button>
                  </Group>
                </Group>
                {open === h.id && <DeliveriesLog hook={h} />}
              </Stack>
            </Card>
          ))}
        </Stack>
      )}
      <ShownOnceModal title="Your outgoing webhook’s signing secret" what="signing secret" secrets={shown ? [shown.secret] : null} onClose={closeShown} />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title="Edit outgoing webhook" centered size="lg">
        {editing && (
          <Stack component="form" onSubmit={saveEdit} gap="xs" aria-label="Edit outgoing webhook">
            <SubscriptionFields form={editing.form} onChange={(f) => setEditing({ ...editing, form: f })} services={services.data ?? []} action={update} />
            <FormError message={update.formError} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                Cancel
              </Button>
              <Button type="submit" loading={update.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <ConfirmModal {...remove.modal} title={`Delete outgoing webhook ${remove.target?.url ?? ''}?`} confirmLabel="Delete">
        Nothing more is sent to it, and its delivery log goes with it. This cannot be undone.
      </ConfirmModal>
    </Stack>
  );
}
