import { Alert, Badge, Button, Card, Group, Loader, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useApiQuery, useIncidents, type IncidentFilters } from '../api/hooks';
import type { IncidentStatus } from '../api/types';
import { STATUS_COLORS } from './status';

const STATUSES: IncidentStatus[] = ['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING', 'RESOLVED', 'CLOSED'];

/** The incident list: newest first, live (the event stream refetches it), filtered by status, service, severity and "mine". */
export function IncidentsPage() {
  const [filters, setFilters] = useState<IncidentFilters>({});
  const incidents = useIncidents(filters);
  const services = useApiQuery<Array<{ id: string; name: string }>>(['services'], '/services');
  const serviceNames = new Map((services.data ?? []).map((s) => [s.id, s.name]));
  const pages = incidents.data?.pages ?? [];
  const counts = pages[0]?.counts ?? {};
  const shown = pages.flatMap((p) => p.incidents);
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
      {incidents.isPending && <Loader aria-label="Loading incidents" />}
      {incidents.error && (
        <Alert color="red" title="Could not load incidents">
          {incidents.error.message}
        </Alert>
      )}
      {incidents.data && shown.length === 0 && <Text c="dimmed">No incidents here. When an alert arrives it shows up at once.</Text>}
      <Stack gap="xs" role="list" aria-label="Incidents">
        {shown.map((i) => (
          // The item names the incident; the card inside it is the link to it.
          <div key={i.id} role="listitem" aria-label={`#${i.number} ${i.title}`}>
            <Card withBorder padding="sm" component={Link} to={`/incidents/${i.id}`}>
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
                {new Date(i.created_at).toLocaleString()}
                {i.paging_held && i.paging_held_until && ` · paging held (maintenance) until ${new Date(i.paging_held_until).toLocaleString()}`}
              </Text>
            </Card>
          </div>
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
