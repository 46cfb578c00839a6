import { useQueryClient } from '@tanstack/react-query';
import { ActionIcon, Alert, Button, Card, Checkbox, Group, NumberInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, describeError } from '../api/client';
import { useApiQuery } from '../api/hooks';

/** A grouping rule as /api/services/{id}/grouping takes it (docs/grouping.md). */
export interface Rule {
  name: string;
  match: Array<{ field: string; op: 'equals' | 'contains' | 'exists' | 'matches'; value?: string }>;
  group_by: string[];
  window_seconds: number;
  page_after: { count: number; within_seconds: number } | null;
}

/** What a replay answers (POST /api/services/{id}/grouping/simulate). */
export interface Replay {
  alerts_replayed: number;
  truncated: boolean;
  pages_before: number;
  pages_after: number;
  incidents_before: number;
  incidents_after: number;
  groups: Array<{ key: string; rule: string; alerts: number; first_at: string; last_at: string }>;
  split_lost: Array<{ incident_id: string; number: number; title: string; folded_into: string }>;
}

const OPS = ['equals', 'contains', 'exists', 'matches'].map((v) => ({ value: v, label: v }));
const RANGES = [
  { value: '7', label: 'last 7 days' },
  { value: '30', label: 'last 30 days' },
  { value: '90', label: 'last 90 days' },
];
const DAY = 86_400_000;
/** How long the draft rests before the live preview asks again. */
export const PREVIEW_DELAY_MS = 600;

const newRule = (n: number): Rule => ({ name: `rule ${n}`, match: [], group_by: [], window_seconds: 600, page_after: null });
const simulate = async (serviceId: string, rules: Rule[], days: number) =>
  (
    await api<Replay>('POST', `/services/${serviceId}/grouping/simulate`, {
      rules,
      from: new Date(Date.now() - days * DAY).toISOString(),
      to: new Date().toISOString(),
    })
  ).data;
const summary = (r: Replay) => `${r.incidents_before} incidents → ${r.incidents_after}, ${r.pages_before} pages → ${r.pages_after}`;

/**
 * A service's grouping rules: a rule builder, a live preview of the draft on the last 24 h, and a
 * replay over a longer range that must be shown for this very draft before it can be saved.
 */
export function GroupingEditor({ serviceId }: { serviceId: string }) {
  const queryClient = useQueryClient();
  const saved = useApiQuery<{ rules: Rule[] }>(['grouping', serviceId], `/services/${serviceId}/grouping`);
  const [draft, setDraft] = useState<Rule[] | null>(null);
  const [preview, setPreview] = useState<{ replay?: Replay; error?: string } | null>(null);
  const [range, setRange] = useState('30');
  const [replay, setReplay] = useState<{ of: string; answer: Replay } | null>(null);
  const [status, setStatus] = useState<{ busy?: boolean; error?: string; done?: string }>({});
  const rules = draft ?? saved.data?.rules ?? [];
  const key = JSON.stringify(rules);

  useEffect(() => {
    if (!draft) return;
    let live = true;
    const timer = setTimeout(() => {
      simulate(serviceId, draft, 1).then(
        (r) => live && setPreview({ replay: r }),
        (err: Error) => live && setPreview({ error: describeError(err) }),
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, serviceId, draft]);

  const change = (i: number, patch: Partial<Rule>) => setDraft(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const run = async (what: 'replay' | 'save') => {
    setStatus({ busy: true });
    try {
      if (what === 'replay') setReplay({ of: key, answer: await simulate(serviceId, rules, Number(range)) });
      else {
        await api('PUT', `/services/${serviceId}/grouping`, { rules });
        await queryClient.invalidateQueries({ queryKey: ['grouping', serviceId] });
      }
      setStatus(what === 'save' ? { done: 'Saved: new alerts are grouped by these rules.' } : {});
    } catch (err) {
      setStatus({ error: describeError(err as Error) });
    }
  };

  return (
    <Stack>
      {rules.length === 0 && <Text c="dimmed">No rules: every alert without an open incident of its dedup key opens its own incident.</Text>}
      {rules.map((r, i) => (
        <Card key={i} withBorder padding="sm" aria-label={`Rule ${i + 1}`}>
          <Group align="end">
            <TextInput label="Name" value={r.name} onChange={(e) => change(i, { name: e.currentTarget.value })} />
            <TextInput
              label="Group by"
              description="fields, comma-separated (labels.host, details.region, severity…)"
              value={r.group_by.join(', ')}
              onChange={(e) =>
                change(i, {
                  group_by: e.currentTarget.value
                    .split(',')
                    .map((f) => f.trim())
                    .filter(Boolean),
                })
              }
            />
            <NumberInput label="Window (s)" min={60} value={r.window_seconds} onChange={(v) => change(i, { window_seconds: Number(v) })} />
            <Button variant="subtle" color="red" onClick={() => setDraft(rules.filter((_, j) => j !== i))}>
              Remove rule
            </Button>
          </Group>
          {r.match.map((c, k) => (
            <Group key={k} align="end" mt="xs">
              <TextInput
                label="Field"
                value={c.field}
                onChange={(e) => change(i, { match: r.match.map((m, n) => (n === k ? { ...m, field: e.currentTarget.value } : m)) })}
              />
              <Select
                label="Op"
                data={OPS}
                value={c.op}
                onChange={(op) => op && change(i, { match: r.match.map((m, n) => (n === k ? { ...m, op: op as Rule['match'][0]['op'] } : m)) })}
              />
              {c.op !== 'exists' && (
                <TextInput
                  label="Value"
                  value={c.value ?? ''}
                  onChange={(e) => change(i, { match: r.match.map((m, n) => (n === k ? { ...m, value: e.currentTarget.value } : m)) })}
                />
              )}
              <ActionIcon variant="subtle" aria-label="Remove condition" onClick={() => change(i, { match: r.match.filter((_, n) => n !== k) })}>
                ×
              </ActionIcon>
            </Group>
          ))}
          <Group mt="xs" align="end">
            <Button size="compact-sm" variant="default" onClick={() => change(i, { match: [...r.match, { field: 'title', op: 'contains', value: '' }] })}>
              Add condition
            </Button>
            <Checkbox
              label="Page only after several alerts"
              checked={r.page_after !== null}
              onChange={(e) => change(i, { page_after: e.currentTarget.checked ? { count: 3, within_seconds: 300 } : null })}
            />
            {r.page_after && (
              <>
                <NumberInput
                  label="Alerts"
                  min={2}
                  value={r.page_after.count}
                  onChange={(v) => change(i, { page_after: { ...r.page_after!, count: Number(v) } })}
                />
                <NumberInput
                  label="Within (s)"
                  min={60}
                  value={r.page_after.within_seconds}
                  onChange={(v) => change(i, { page_after: { ...r.page_after!, within_seconds: Number(v) } })}
                />
              </>
            )}
          </Group>
        </Card>
      ))}
      <Group>
        <Button variant="default" onClick={() => setDraft([...rules, newRule(rules.length + 1)])}>
          Add rule
        </Button>
      </Group>
      {preview?.replay && <Text size="sm">Last 24 h with this draft: {summary(preview.replay)}.</Text>}
      {preview?.error && (
        <Text size="sm" c="red">
          Preview: {preview.error}
        </Text>
      )}
      <Title order={4}>Replay before saving</Title>
      <Group align="end">
        <Select label="Range" data={RANGES} value={range} onChange={(v) => v && setRange(v)} allowDeselect={false} />
        <Button variant="default" onClick={() => void run('replay')} loading={status.busy}>
          Replay
        </Button>
        <Button onClick={() => void run('save')} disabled={replay?.of !== key} loading={status.busy}>
          Save rules
        </Button>
      </Group>
      {replay?.of !== key && (
        <Text size="sm" c="dimmed">
          Replay this draft to save it: you see what it would have done first.
        </Text>
      )}
      {replay && replay.of === key && <ReplayAnswer replay={replay.answer} />}
      {status.error && (
        <Alert color="red" title="Not done">
          {status.error}
        </Alert>
      )}
      {status.done && <Alert color="green">{status.done}</Alert>}
    </Stack>
  );
}

/** A replay's totals, its largest groups, and the pages a fold would lose. */
function ReplayAnswer({ replay }: { replay: Replay }) {
  return (
    <Stack gap="xs">
      <Text>
        {replay.alerts_replayed} alerts replayed{replay.truncated ? ' (the oldest; more were left out)' : ''}: {summary(replay)}.
      </Text>
      {replay.groups.length > 0 && (
        <Table aria-label="Groups">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Group</Table.Th>
              <Table.Th>Rule</Table.Th>
              <Table.Th>Alerts</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {replay.groups.slice(0, 20).map((g) => (
              <Table.Tr key={`${g.rule}:${g.key}:${g.first_at}`}>
                <Table.Td>{g.key}</Table.Td>
                <Table.Td>{g.rule}</Table.Td>
                <Table.Td>{g.alerts}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {replay.split_lost.length > 0 && (
        <Alert color="orange" title={`${replay.split_lost.length} incidents would lose their own page`}>
          {replay.split_lost.slice(0, 10).map((s) => (
            <Text key={s.incident_id} size="sm">
              #{s.number} {s.title} → folded into {s.folded_into}
            </Text>
          ))}
        </Alert>
      )}
    </Stack>
  );
}
