import { Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api/client';
import { useAction } from '../api/hooks';
import { Empty, FormError } from '../components/PageStates';
import { ConfirmModal } from '../components/ConfirmModal';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { describeMethod, MAX_RULE_DELAY_MINUTES, methodState, RULES, ruleTiming, type ContactMethod, type NotificationRule } from './contact-methods';
import { minutesToSeconds } from './policy-form';

/** My notification rules in firing order: which contact method, how long after a page starts; add and delete. */
export function NotificationRules({ methods, rules }: { methods: ContactMethod[]; rules: NotificationRule[] }) {
  const remove = useConfirmedAction((r: NotificationRule) => api('DELETE', `/notification-rules/${r.id}`), { invalidate: [RULES] });
  const methodOf = new Map(methods.map((m) => [m.id, m]));
  const describe = (r: NotificationRule) => {
    const m = methodOf.get(r.contact_method_id);
    return `${ruleTiming(r.delay_seconds)}: ${m ? describeMethod(m) : 'a removed contact method'}`;
  };

  return (
    <Stack gap="sm">
      <Title order={3}>Notification rules</Title>
      <Text size="sm" c="dimmed">
        When you are paged, each rule uses its contact method this long after the page starts.
      </Text>
      {rules.length === 0 ? (
        <Empty>No notification rule yet: when you are paged, Klaxon emails you at once. Add a rule below to be texted or called, and say when.</Empty>
      ) : (
        <Stack gap="xs" role="list" aria-label="Notification rules">
          {rules.map((r) => {
            const m = methodOf.get(r.contact_method_id);
            const waiting = m && methodState(m) !== 'verified';
            return (
              <Paper key={r.id} withBorder p="sm" radius="md" role="listitem" aria-label={describe(r)}>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Text style={{ overflowWrap: 'anywhere' }}>
                    {describe(r)}
                    {waiting && (
                      <Text span c="dimmed" size="sm">
                        {' '}
                        (pages once the number is {m.disabled_at ? 'usable again' : 'verified'})
                      </Text>
                    )}
                  </Text>
                  <Button size="compact-sm" variant="subtle" color="red" onClick={() => remove.ask(r)} aria-label={`Delete rule ${describe(r)}`}>
                    Delete
                  </Button>
                </Group>
              </Paper>
            );
          })}
        </Stack>
      )}
      <AddRule methods={methods} />
      <ConfirmModal {...remove.modal} title="Delete this notification rule?" confirmLabel="Delete rule">
        {remove.target && `${describe(remove.target)}: Klaxon will no longer page you this way.`}
      </ConfirmModal>
    </Stack>
  );
}

/** Adds a rule: a contact method and a delay in minutes (seconds on the wire). */
function AddRule({ methods }: { methods: ContactMethod[] }) {
  const [methodId, setMethodId] = useState<string | null>(null);
  const [minutes, setMinutes] = useState('0');
  const [typed, setTyped] = useState<string | undefined>();
  const add = useAction((body: { contact_method_id: string; delay_seconds: number }) => api<NotificationRule>('POST', '/notification-rules', body), {
    invalidate: [RULES],
  });
  const chosen = methodId ?? methods[0]?.id ?? null;

  function submit(e: FormEvent) {
    e.preventDefault();
    const seconds = minutesToSeconds(minutes);
    setTyped(seconds === undefined ? `must be a number of minutes from 0 to ${MAX_RULE_DELAY_MINUTES}` : undefined);
    if (seconds !== undefined && chosen) add.mutate({ contact_method_id: chosen, delay_seconds: seconds });
  }
  // The server's 409 names the method by id; say it the way the list does.
  const duplicate = add.error instanceof ApiError && add.error.code === 'duplicate_notification_rule' && add.variables;
  const duplicateMethod = duplicate ? methods.find((m) => m.id === duplicate.contact_method_id) : undefined;
  const formError = duplicate
    ? `There is already a rule for ${duplicateMethod ? describeMethod(duplicateMethod) : 'this contact method'} ${ruleTiming(duplicate.delay_seconds).toLowerCase()}.`
    : add.formError;

  return (
    <Paper withBorder p="sm" radius="md" component="form" onSubmit={submit} aria-label="Add a notification rule">
      <Stack gap="xs">
        <Title order={4}>Add a notification rule</Title>
        {methods.length === 0 ? (
          <Text size="sm" c="dimmed">
            Add a contact method first.
          </Text>
        ) : (
          <>
            <FormError message={formError} />
            <Group align="start" wrap="wrap">
              <Select
                label="Contact method"
                data={methods.map((m) => ({ value: m.id, label: describeMethod(m) }))}
                value={chosen}
                onChange={setMethodId}
                allowDeselect={false}
                error={add.fieldError('contact_method_id')}
                style={{ flex: '1 1 240px' }}
              />
              <TextInput
                label="Delay (minutes)"
                description={`After the page starts; 0 is at once, at most ${MAX_RULE_DELAY_MINUTES}`}
                inputMode="decimal"
                value={minutes}
                onChange={(e) => setMinutes(e.currentTarget.value)}
                error={typed ?? add.fieldError('delay_seconds')}
                w={220}
              />
            </Group>
            <Group>
              <Button type="submit" loading={add.isPending}>
                Add rule
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
