import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useMemo, useState, type FormEvent } from 'react';
import { FormError } from '../components/PageStates';
import { timeZoneOptions } from './calendar';
import { fieldOf, messageFor } from '../api/field-errors';
import type { ScheduleDraft } from './layerForm';
import { LayersEditor } from './LayersEditor';
import type { Member } from './types';

const SHOWN = /^(name|time_zone|layers)(\.|$)/;

/**
 * A schedule's name, time zone and layers, for creating one or changing it. `error` is the
 * server's refusal: next to the field it names, else above the form.
 */
export function ScheduleForm({
  initial,
  members,
  today,
  submitLabel,
  pending,
  error,
  onSubmit,
  label,
}: {
  initial: ScheduleDraft;
  members: Member[];
  today: string;
  submitLabel: string;
  pending: boolean;
  error: string | undefined;
  onSubmit: (draft: ScheduleDraft) => void;
  label: string;
}) {
  const [draft, setDraft] = useState(initial);
  const zones = useMemo(() => timeZoneOptions(initial.timeZone), [initial.timeZone]);
  const field = fieldOf(error);
  const layersError = field === 'layers' ? error : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(draft);
  };
  return (
    <Stack component="form" onSubmit={submit} aria-label={label} gap="sm">
      <FormError message={field && SHOWN.test(field) ? undefined : error} />
      <Group grow wrap="wrap" align="start">
        <TextInput
          label="Name"
          required
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
          error={messageFor(error, 'name')}
          miw={200}
        />
        <Select
          label="Time zone"
          description="Hand-offs follow this clock, summer time included"
          required
          searchable
          allowDeselect={false}
          data={zones}
          limit={100}
          value={draft.timeZone}
          onChange={(v) => v && setDraft({ ...draft, timeZone: v })}
          error={messageFor(error, 'time_zone')}
          miw={200}
        />
      </Group>
      {layersError && <FormError message={layersError} />}
      <LayersEditor layers={draft.layers} onChange={(layers) => setDraft({ ...draft, layers })} members={members} error={error} today={today} />
      <Group>
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}
