import { ActionIcon, Button, Fieldset, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { fieldOf, messageFor } from '../api/field-errors';
import { moved, newLayer, ROTATION_UNITS, type LayerDraft } from './layerForm';
import { personLabel } from '../components/people';
import { RestrictionsEditor } from './RestrictionsEditor';
import type { Member, RotationUnit } from './types';

const LAYER_FIELDS = new Set(['name', 'users', 'rotation', 'handoff_time', 'start', 'restrictions']);

/**
 * The rotation layers of a schedule, lowest first (the highest layer with someone on call wins).
 * `error` is the server's last message; each field shows it when it names that field.
 */
export function LayersEditor({
  layers,
  onChange,
  members,
  error,
  today,
}: {
  layers: LayerDraft[];
  onChange: (layers: LayerDraft[]) => void;
  members: Member[];
  error?: string;
  today: string;
}) {
  const set = (i: number, layer: LayerDraft) => onChange(layers.map((l, j) => (j === i ? layer : l)));
  return (
    <Stack gap="sm">
      {layers.map((layer, i) => (
        <LayerFields
          key={i}
          index={i}
          layer={layer}
          onChange={(l) => set(i, l)}
          onRemove={layers.length > 1 ? () => onChange(layers.filter((_, j) => j !== i)) : undefined}
          members={members}
          error={error}
        />
      ))}
      <Group>
        <Button variant="default" onClick={() => onChange([...layers, newLayer(today)])}>
          Add layer
        </Button>
        {layers.length > 1 && (
          <Text size="xs" c="dimmed">
            Later layers win over earlier ones when both have someone on call.
          </Text>
        )}
      </Group>
    </Stack>
  );
}

function LayerFields({
  index,
  layer,
  onChange,
  onRemove,
  members,
  error,
}: {
  index: number;
  layer: LayerDraft;
  onChange: (l: LayerDraft) => void;
  onRemove?: () => void;
  members: Member[];
  error?: string;
}) {
  const field = (name: string) => messageFor(error, `layers.${index}.${name}`);
  // A message about this layer that names none of the fields shown (an unknown key, the layer as a whole).
  const named = fieldOf(error)?.split('.');
  const layerError = named && named[0] === 'layers' && named[1] === String(index) && !LAYER_FIELDS.has(named[2] ?? '') ? error : undefined;
  const legend = `Layer ${index + 1}`;
  const byId = new Map(members.map((m) => [m.id, m]));
  const who = (id: string) => personLabel(byId.get(id));
  const setUsers = (users: string[]) => onChange({ ...layer, users });
  return (
    <Fieldset legend={legend}>
      <Stack gap="xs">
        {layerError && (
          <Text size="sm" c="red" role="alert">
            {layerError}
          </Text>
        )}
        <TextInput
          label="Layer name"
          description="Optional"
          value={layer.name}
          onChange={(e) => onChange({ ...layer, name: e.currentTarget.value })}
          error={field('name')}
        />
        <Select
          label="Add to rotation"
          placeholder="Pick a member"
          value={null}
          data={members.filter((m) => !layer.users.includes(m.id)).map((m) => ({ value: m.id, label: personLabel(m) }))}
          onChange={(id) => id && setUsers([...layer.users, id])}
          error={field('users')}
          nothingFoundMessage="Everyone is in this rotation"
        />
        {layer.users.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nobody yet: add the people who take turns, in order.
          </Text>
        ) : (
          <Stack component="ol" gap={4} m={0} pl="md" aria-label={`Rotation order of layer ${index + 1}`}>
            {layer.users.map((id, j) => (
              <li key={id}>
                <Group gap={4} wrap="wrap">
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {who(id)}
                  </Text>
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    aria-label={`Move ${who(id)} earlier`}
                    disabled={j === 0}
                    onClick={() => setUsers(moved(layer.users, j, -1))}
                  >
                    ↑
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    aria-label={`Move ${who(id)} later`}
                    disabled={j === layer.users.length - 1}
                    onClick={() => setUsers(moved(layer.users, j, 1))}
                  >
                    ↓
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    color="red"
                    aria-label={`Remove ${who(id)} from the rotation`}
                    onClick={() => setUsers(layer.users.filter((u) => u !== id))}
                  >
                    ✕
                  </ActionIcon>
                </Group>
              </li>
            ))}
          </Stack>
        )}
        <Group grow wrap="wrap" align="start">
          <NumberInput
            label="Rotation length"
            min={1}
            value={layer.length}
            onChange={(v) => onChange({ ...layer, length: v })}
            error={field('rotation.length') ?? (field('rotation') && !field('rotation.unit') ? field('rotation') : undefined)}
            miw={120}
          />
          <Select
            label="Rotation unit"
            data={ROTATION_UNITS}
            value={layer.unit}
            allowDeselect={false}
            onChange={(v) => v && onChange({ ...layer, unit: v as RotationUnit })}
            error={field('rotation.unit')}
            miw={120}
          />
        </Group>
        <Group grow wrap="wrap" align="start">
          <TextInput
            type="time"
            label="Hand-off time"
            description="On the schedule's clock"
            value={layer.handoffTime}
            onChange={(e) => onChange({ ...layer, handoffTime: e.currentTarget.value })}
            error={field('handoff_time')}
            miw={140}
          />
          <TextInput
            type="date"
            label="Start date"
            description="The first shift starts here"
            value={layer.start}
            onChange={(e) => onChange({ ...layer, start: e.currentTarget.value })}
            error={field('start')}
            miw={140}
          />
        </Group>
        <RestrictionsEditor
          restrictions={layer.restrictions}
          layerIndex={index}
          onChange={(restrictions) => onChange({ ...layer, restrictions })}
          error={field('restrictions')}
        />
        {onRemove && (
          <Button variant="subtle" color="red" size="compact-sm" onClick={onRemove} aria-label={`Remove layer ${index + 1}`} style={{ alignSelf: 'start' }}>
            Remove layer
          </Button>
        )}
      </Stack>
    </Fieldset>
  );
}
