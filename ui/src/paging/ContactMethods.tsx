import { Badge, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { ChannelId } from '../../../src/domain/channels';
import { api } from '../api/client';
import { useAction } from '../api/hooks';
import { useChannels } from './channels';
import { Empty, FormError } from '../components/PageStates';
import { ConfirmModal } from '../components/ConfirmModal';
import { useConfirmedAction } from '../components/useConfirmedAction';
import {
  addressHint,
  addressLabel,
  CONTACT_TYPE_OPTIONS,
  CONTACTS,
  RULES,
  describeMethod,
  isPhone,
  isWebPush,
  methodState,
  type ContactMethod,
  type NotificationRule,
} from './contact-methods';
import { VerifyPhone } from './VerifyPhone';

const STATE_BADGE = {
  verified: { color: 'green', text: 'Verified' },
  unverified: { color: 'yellow', text: 'Unverified' },
  disabled: { color: 'gray', text: 'Disabled' },
} as const;

/** My contact methods: the list with each one's state, phone verification, removal; and the form to add one. */
export function ContactMethods({ methods: all, rules }: { methods: ContactMethod[]; rules: NotificationRule[] }) {
  // Browsers with Web Push are listed in their own section (PushOnThisDevice), with a test push each.
  const methods = all.filter((m) => !isWebPush(m));
  const remove = useConfirmedAction((m: ContactMethod) => api('DELETE', `/contact-methods/${m.id}`), { invalidate: [CONTACTS, RULES] });
  const rulesOf = (m: ContactMethod) => rules.filter((r) => r.contact_method_id === m.id).length;

  return (
    <Stack gap="sm">
      <Title order={3}>Contact methods</Title>
      {methods.length === 0 ? (
        <Empty>No phone number or email address yet. Add your phone number or email address below so Klaxon can reach you when you are paged.</Empty>
      ) : (
        <Stack gap="xs" role="list" aria-label="Contact methods">
          {methods.map((m) => {
            const state = methodState(m);
            return (
              <Paper key={m.id} withBorder p="sm" radius="md" role="listitem" aria-label={describeMethod(m)}>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {describeMethod(m)}
                    </Text>
                    <Badge color={STATE_BADGE[state].color} variant="light">
                      {STATE_BADGE[state].text}
                    </Badge>
                    {m.source === 'import' && (
                      <Badge color="gray" variant="outline" title="Brought in by an import from PagerDuty or Opsgenie: a test page confirms it reaches you">
                        Imported
                      </Badge>
                    )}
                  </Group>
                  <Button size="compact-sm" variant="subtle" color="red" onClick={() => remove.ask(m)} aria-label={`Delete ${describeMethod(m)}`}>
                    Delete
                  </Button>
                </Group>
                {state === 'disabled' && (
                  <Text size="sm" c="dimmed">
                    Not paged: {m.disabled_reason ?? 'the provider reported the address unusable'}. Delete it and add it again once it works.
                  </Text>
                )}
                {state === 'unverified' && <VerifyPhone method={m} />}
              </Paper>
            );
          })}
        </Stack>
      )}
      <AddContactMethod />
      <ConfirmModal {...remove.modal} title="Delete this contact method?" confirmLabel="Delete contact method">
        {remove.target &&
          `Klaxon will no longer page you at ${describeMethod(remove.target)}.${rulesOf(remove.target) ? ` Its ${rulesOf(remove.target)} notification rule(s) go with it.` : ''}`}
      </ConfirmModal>
    </Stack>
  );
}

/** Adds a contact method; a new phone number is texted a code to type back. */
/**
 * The types the form offers and what their address is called, as the server's channels say
 * (`GET /api/channels`: the integrations' declarations); the built-in wording until it answers.
 * A Slack DM comes from linking Slack and Web Push from the device itself: never offered here.
 */
function useContactTypes() {
  const channels = useChannels();
  const offered = channels?.filter((c) => c.id !== 'slack' && !isWebPush({ type: c.id }));
  const of = (type: string) => channels?.find((c) => c.id === type);
  return {
    options: offered ? offered.map((c) => ({ value: c.id, label: c.label })) : CONTACT_TYPE_OPTIONS,
    label: (type: ChannelId) => of(type)?.address_label ?? addressLabel(type),
    hint: (type: ChannelId) => (isPhone(type) ? addressHint(type) : (of(type)?.address_placeholder ?? addressHint(type))),
  };
}

function AddContactMethod() {
  const [type, setType] = useState<ChannelId>('sms');
  const types = useContactTypes();
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const add = useAction((body: { type: ChannelId; address: string; label?: string }) => api<ContactMethod>('POST', '/contact-methods', body), {
    invalidate: [CONTACTS],
    onSuccess: () => {
      setAddress('');
      setLabel('');
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate({ type, address, ...(label.trim() ? { label: label.trim() } : {}) });
  }
  return (
    <Paper withBorder p="sm" radius="md" component="form" onSubmit={submit} aria-label="Add a contact method">
      <Stack gap="xs">
        <Title order={4}>Add a contact method</Title>
        <FormError message={add.formError} />
        <Group align="start" wrap="wrap">
          <Select
            label="Type"
            data={types.options}
            value={type}
            onChange={(v) => v && setType(v as ChannelId)}
            allowDeselect={false}
            error={add.fieldError('type')}
            w={180}
          />
          <TextInput
            label={types.label(type)}
            description={types.hint(type)}
            required
            value={address}
            onChange={(e) => setAddress(e.currentTarget.value)}
            error={add.fieldError('address')}
            style={{ flex: '1 1 220px' }}
          />
          <TextInput
            label="Label"
            description="Optional, e.g. work phone"
            value={label}
            onChange={(e) => setLabel(e.currentTarget.value)}
            error={add.fieldError('label')}
            style={{ flex: '1 1 160px' }}
          />
        </Group>
        <Group>
          <Button type="submit" loading={add.isPending}>
            Add contact method
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
