import { Alert, Badge, Button, Card, Checkbox, Group, List, Loader, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { useAction, useApiQuery, useIncidents, type IncidentFilters } from '../api/hooks';
import type { Incident, IncidentStatus } from '../api/types';
import { useNow, useTimeZone } from '../time/useTimeZone';
import { WhenAt } from '../time/When';
import { BULK_MAX, bulkResults, type BulkAnswer, type BulkResult } from './bulk';
import { STATUS_COLORS } from './status';

const STATUSES: IncidentStatus[] = ['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING', 'RESOLVED', 'CLOSED'];

type BulkAction = 'acknowledge' | 'resolve';

/** What a bulk action did, incident by incident. */
function BulkOutcome({ action, results, numbers, onClose }: { action: BulkAction; results: BulkResult[]; numbers: Map<string, number>; onClose: () => void }) {
  const done = results.filter((r) => r.ok).length;
  return (
    <Alert
      color={done === results.length ? 'green' : 'yellow'}
      title={`${action === 'acknowledge' ? 'Acknowledge' : 'Resolve'}: ${done} of ${results.length} done`}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onClose}
    >
      <List size="sm" aria-label="Bulk results">
        {results.map((r) => {
          const number = r.number ?? numbers.get(r.id);
          const name = number !== undefined ? `#${number}` : r.id.slice(0, 8);
          return (
            <List.Item key={r.id} aria-label={`${name}: ${r.ok ? (r.status ?? 'done') : `not done: ${r.error ?? 'refused'}`}`}>
              {name}: {r.ok ? (r.status ?? 'done') : `not done: ${r.error ?? 'refused'}`}
            </List.Item>
          );
        })}
      </List>
    </Alert>
  );
}

/**
 * The incident list: newest first, live (the event stream refetches it), filtered by status,
 * service, severity and "mine"; checkboxes to acknowledge or resolve many at once, each through
 * its own workflow, with each one's result shown.
 */
export function IncidentsPage() {
  const [filters, setFilters] = useState<IncidentFilters>({});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [outcome, setOutcome] = useState<{ action: BulkAction; results: BulkResult[] } | null>(null);
  const now = useNow();
  const zone = useTimeZone();
  const incidents = useIncidents(filters);
  const services = useApiQuery<Array<{ id: string; name: string }>>(['services'], '/services');
  const serviceNames = new Map((services.data ?? []).map((s) => [s.id, s.name]));
  const pages = incidents.data?.pages ?? [];
  const counts = pages[0]?.counts ?? {};
  const shown: Incident[] = pages.flatMap((p) => p.incidents);
  const numbers = new Map(shown.map((i) => [i.id, i.number]));
  const bulk = useAction(
    async (action: BulkAction) => ({
      action,
      results: bulkResults((await api<BulkAnswer>('POST', '/incidents/bulk', { action, incident_ids: [...selected] })).data),
    }),
    {
      invalidate: [['incidents']],
      onSuccess: (done) => {
        setOutcome(done);
        setSelected(new Set());
      },
    },
  );
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on && next.size < BULK_MAX) next.add(id);
    else next.delete(id);
    setSelected(next);
  };
  const allShown = shown.length > 0 && shown.slice(0, BULK_MAX).every((i) => selected.has(i.id));
  return (
    <Stack>
      <Title order={2}>Incidents</Title>
      <Group gap="sm" wrap="wrap">
        <SegmentedControl
          aria-label="Status"
          value={filters.status ?? 'ALL'}
          onChange={(v) => setFilters({ ...filters, status: v === 'ALL' ? undefined : v })}
          data={[
            { value: 'ALL', label: `All ${Object.values(counts).reduce((a, b) => a + b, 0)}` },
            ...STATUSES.map((s) => ({ value: s, label: `${s[0]}${s.slice(1).toLowerCase()} ${counts[s] ?? 0}` })),
          ]}
          style={{ maxWidth: '100%', overflowX: 'auto' }}
        />
        <Select
          aria-label="Service"
          placeholder="Any service"
          clearable
          searchable
          value={filters.service_id ?? null}
          onChange={(v) => setFilters({ ...filters, service_id: v ?? undefined })}
          data={(services.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          w={180}
        />
        <Select
          aria-label="Severity"
          placeholder="Any severity"
          clearable
          value={filters.severity ?? null}
          onChange={(v) => setFilters({ ...filters, severity: v ?? undefined })}
          data={['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO']}
          w={160}
        />
        <Select
          aria-label="Assigned"
          placeholder="Everyone's"
          clearable
          value={filters.assigned ?? null}
          onChange={(v) => setFilters({ ...filters, assigned: (v as IncidentFilters['assigned']) ?? undefined })}
          data={[
            { value: 'me', label: 'Assigned to me' },
            { value: 'my_teams', label: 'My teams' },
          ]}
          w={180}
        />
      </Group>
      {shown.length > 0 && (
        <Group gap="xs" wrap="wrap" aria-label="Bulk actions" role="group">
          <Checkbox
            label={selected.size ? `${selected.size} selected` : 'Select all shown'}
            aria-label="Select all shown"
            checked={allShown}
            indeterminate={selected.size > 0 && !allShown}
            onChange={(e) => setSelected(e.currentTarget.checked ? new Set(shown.slice(0, BULK_MAX).map((i) => i.id)) : new Set())}
          />
          {selected.size > 0 && (
            <>
              <Button size="compact-sm" onClick={() => bulk.mutate('acknowledge')} loading={bulk.isPending && bulk.variables === 'acknowledge'}>
                Acknowledge selected
              </Button>
              <Button size="compact-sm" onClick={() => bulk.mutate('resolve')} loading={bulk.isPending && bulk.variables === 'resolve'}>
                Resolve selected
              </Button>
            </>
          )}
        </Group>
      )}
      {bulk.errorMessage && (
        <Alert color="red" title="Not done">
          {bulk.errorMessage}
        </Alert>
      )}
      {outcome && <BulkOutcome action={outcome.action} results={outcome.results} numbers={numbers} onClose={() => setOutcome(null)} />}
      {incidents.isPending && <Loader aria-label="Loading incidents" />}
      {incidents.error && (
        <Alert color="red" title="Could not load incidents">
          {incidents.error.message}
        </Alert>
      )}
      {incidents.data && shown.length === 0 && <Text c="dimmed">No incidents here. When an alert arrives it shows up at once.</Text>}
      <Stack gap="xs" role="list" aria-label="Incidents">
        {shown.map((i) => (
          // The item names the incident; its checkbox selects it; the card inside it is the link to it.
          <Group key={i.id} role="listitem" aria-label={`#${i.number} ${i.title}`} gap="xs" wrap="nowrap" align="center">
            <Checkbox aria-label={`Select #${i.number}`} checked={selected.has(i.id)} onChange={(e) => toggle(i.id, e.currentTarget.checked)} />
            <Card withBorder padding="sm" component={Link} to={`/incidents/${i.id}`} style={{ flex: 1, minWidth: 0 }}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text fw={600} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                  #{i.number} {i.title}
                </Text>
                <Badge color={STATUS_COLORS[i.status]} style={{ flexShrink: 0 }}>
                  {i.status}
                </Badge>
              </Group>
              <Text size="sm" c="dimmed">
                {i.severity}
                {i.service_id && serviceNames.has(i.service_id) ? ` · ${serviceNames.get(i.service_id)}` : ''} · {i.alert_count} alert(s) · opened{' '}
                <WhenAt iso={i.created_at} now={now} zone={zone} />
                {i.paging_held && i.paging_held_until && (
                  <>
                    {' · paging held (maintenance) until '}
                    <WhenAt iso={i.paging_held_until} now={now} zone={zone} />
                  </>
                )}
              </Text>
            </Card>
          </Group>
        ))}
      </Stack>
      {incidents.hasNextPage && (
        <Button variant="default" onClick={() => incidents.fetchNextPage()} loading={incidents.isFetchingNextPage} w="fit-content">
          Show older incidents
        </Button>
      )}
    </Stack>
  );
}
