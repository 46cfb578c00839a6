import { Button, Fieldset, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { fieldOf, messageFor } from '../api/field-errors';
import { describeRestriction, newRestriction, RESTRICTION_TYPES, restrictionBody, WEEKDAYS, type RestrictionDraft } from './restrictionForm';
import type { RestrictionType } from './types';

const TYPE_LABELS: Record<RestrictionType, string> = { daily: 'Every day', weekly: 'Once a week' };
const WINDOW_FIELDS = new Set(['type', 'start_day', 'start_time', 'duration_seconds']);

/**
 * The windows in which a layer applies, on the schedule's clock (none: always). Outside them the
 * layer gives nobody and the layers below show. `error` is the server's message when it names
 * this layer's restrictions (`layers.0.restrictions.1.start_day: …`): each field shows its own.
 */
export function RestrictionsEditor({
  restrictions,
  layerIndex,
  onChange,
  error,
}: {
  restrictions: RestrictionDraft[];
  layerIndex: number;
  onChange: (restrictions: RestrictionDraft[]) => void;
  error?: string;
}) {
  const path = `layers.${layerIndex}.restrictions`;
  const listError = fieldOf(error) === path ? error : undefined;
  const set = (j: number, r: RestrictionDraft) => onChange(restrictions.map((x, k) => (k === j ? r : x)));
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        Only at certain times
      </Text>
      <Text size="xs" c="dimmed">
        {restrictions.length === 0
          ? 'All day, every day.'
          : "Outside these windows this layer has nobody on call and the layers below show. On the schedule's clock; a window may run past midnight or past Sunday."}
      </Text>
      {restrictions.map((r, j) => (
        <RestrictionFields
          key={j}
          draft={r}
          name={`Window ${j + 1} of layer ${layerIndex + 1}`}
          legend={`Window ${j + 1}`}
          onChange={(x) => set(j, x)}
          onRemove={() => onChange(restrictions.filter((_, k) => k !== j))}
          error={messageFor(error, `${path}.${j}`)}
          path={`${path}.${j}`}
        />
      ))}
      {listError && (
        <Text size="sm" c="red" role="alert">
          {listError}
        </Text>
      )}
      <Button
        variant="default"
        size="compact-sm"
        style={{ alignSelf: 'start' }}
        onClick={() => onChange([...restrictions, newRestriction()])}
        aria-label={`Add a window to layer ${layerIndex + 1}`}
      >
        Add window
      </Button>
    </Stack>
  );
}

function RestrictionFields({
  draft,
  name,
  legend,
  onChange,
  onRemove,
  error,
  path,
}: {
  draft: RestrictionDraft;
  name: string;
  legend: string;
  onChange: (r: RestrictionDraft) => void;
  onRemove: () => void;
  error?: string;
  path: string;
}) {
  const field = (f: string) => messageFor(error, `${path}.${f}`);
  // A message about the window as a whole (the old {from, to} shape, an unknown key).
  const named = fieldOf(error);
  const windowError = error && !WINDOW_FIELDS.has(named?.slice(path.length + 1) ?? '') ? error : undefined;
  const duration = field('duration_seconds');
  return (
    <Fieldset legend={legend} aria-label={name} p="xs">
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap" align="start">
          <Select
            label="Repeats"
            data={RESTRICTION_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
            value={draft.type}
            allowDeselect={false}
            onChange={(v) => v && onChange({ ...draft, type: v as RestrictionType })}
            error={field('type')}
            w={140}
          />
          {draft.type === 'weekly' && (
            <Select
              label="On"
              data={WEEKDAYS.map((d, i) => ({ value: String(i + 1), label: d }))}
              value={String(draft.startDay)}
              allowDeselect={false}
              onChange={(v) => v && onChange({ ...draft, startDay: Number(v) })}
              error={field('start_day')}
              w={140}
            />
          )}
          <TextInput
            type="time"
            label="From"
            value={draft.startTime}
            onChange={(e) => onChange({ ...draft, startTime: e.currentTarget.value })}
            error={field('start_time')}
            w={120}
          />
          <NumberInput label="For hours" min={0} value={draft.hours} onChange={(v) => onChange({ ...draft, hours: v })} error={duration} w={110} />
          <NumberInput
            label="and minutes"
            min={0}
            max={59}
            value={draft.minutes}
            onChange={(v) => onChange({ ...draft, minutes: v })}
            error={!!duration}
            w={110}
          />
        </Group>
        <Group gap="xs" justify="space-between" wrap="wrap">
          <Text size="xs" c="dimmed">
            {describeRestriction(restrictionBody(draft))}
          </Text>
          <Button variant="subtle" color="red" size="compact-sm" aria-label={`Remove ${name.toLowerCase()}`} onClick={onRemove}>
            Remove
          </Button>
        </Group>
        {windowError && (
          <Text size="sm" c="red" role="alert">
            {windowError}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
