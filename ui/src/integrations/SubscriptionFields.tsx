import { MultiSelect, Stack, TextInput } from '@mantine/core';
import type { useAction } from '../api/hooks';
import { INCIDENT_EVENT_TYPES, type SubscriptionForm } from './outgoing-webhooks';

const EVENT_OPTIONS = INCIDENT_EVENT_TYPES.map((t) => ({ value: t, label: t }));

/** The fields of a subscription, for creating and editing; errors are the server's, by field. */
export function SubscriptionFields({
  form,
  onChange,
  services,
  action,
}: {
  form: SubscriptionForm;
  onChange: (f: SubscriptionForm) => void;
  services: Array<{ id: string; name: string }>;
  action: Pick<ReturnType<typeof useAction>, 'fieldError'>;
}) {
  return (
    <Stack gap="xs">
      <TextInput
        label="Endpoint URL"
        placeholder="https://hooks.example.com/klaxon"
        required
        maxLength={2048}
        value={form.url}
        onChange={(e) => onChange({ ...form, url: e.currentTarget.value })}
        error={action.fieldError('url')}
      />
      <TextInput
        label="Description"
        placeholder="our event bus"
        maxLength={500}
        value={form.description}
        onChange={(e) => onChange({ ...form, description: e.currentTarget.value })}
        error={action.fieldError('description')}
      />
      <MultiSelect
        label="Event types"
        placeholder={form.eventTypes.length ? undefined : 'All event types'}
        data={EVENT_OPTIONS}
        value={form.eventTypes}
        onChange={(eventTypes) => onChange({ ...form, eventTypes })}
        clearable
        searchable
        error={action.fieldError('event_types')}
      />
      <MultiSelect
        label="Services"
        placeholder={form.serviceIds.length ? undefined : 'All services'}
        data={services.map((s) => ({ value: s.id, label: s.name }))}
        value={form.serviceIds}
        onChange={(serviceIds) => onChange({ ...form, serviceIds })}
        clearable
        searchable
        error={action.fieldError('service_ids')}
      />
    </Stack>
  );
}
