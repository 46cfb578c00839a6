import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { LifecycleOperation } from '../../../src/domain/incident-lifecycle';
import { api } from '../api/client';
import { useIncident } from '../api/hooks';
import type { Incident, IncidentDetail } from '../api/types';
import { allowedOperations, OPERATION_LABELS, STATUS_COLORS } from './status';
import { IncidentAlerts } from './IncidentAlerts';
import { Timeline } from './Timeline';
import { MaintenanceBanner } from '../maintenance/MaintenanceBanner';
import { When } from '../time/When';
import { IncidentActions } from './IncidentActions';
import { LinkedText } from './LinkedText';

/**
 * One incident: its status, its service (linked to the service's page) and the buttons its state
 * allows (a, r on the keyboard); notes, responders, snooze and merge; its alerts with everything
 * their senders said; and its timeline with every page. Moves show at once and roll back when the
 * server refuses (409). Times are relative, exact in the person's zone on hover.
 */
export function IncidentPage() {
  const { id = '' } = useParams();
  const incident = useIncident(id);
  const client = useQueryClient();
  const move = useMutation({
    mutationFn: async (op: LifecycleOperation) => (await api<Incident>('POST', `/incidents/${id}/${op}`)).data,
    onMutate: async (op) => {
      await client.cancelQueries({ queryKey: ['incident', id] });
      const before = client.getQueryData<IncidentDetail>(['incident', id]);
      const optimistic = { acknowledge: 'ACKNOWLEDGED', investigate: 'INVESTIGATING', resolve: 'RESOLVED', close: 'CLOSED', reopen: 'TRIGGERED' } as const;
      if (before) client.setQueryData(['incident', id], { ...before, status: optimistic[op] });
      return { before };
    },
    onError: (_err, _op, context) => {
      if (context?.before) client.setQueryData(['incident', id], context.before);
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['incident', id] }),
  });
  const escalate = useMutation({
    mutationFn: () => api('POST', `/incidents/${id}/escalate`),
    onSettled: () => client.invalidateQueries({ queryKey: ['incident', id] }),
  });
  const allowed = incident.data ? allowedOperations(incident.data.status) : [];
  useHotkeys([
    ['a', () => allowed.includes('acknowledge') && move.mutate('acknowledge')],
    ['r', () => allowed.includes('resolve') && move.mutate('resolve')],
  ]);

  if (incident.isPending) return <Loader aria-label="Loading the incident" />;
  if (incident.error)
    return (
      <Alert color="red" title="Could not load the incident">
        {incident.error.message}
      </Alert>
    );
  const i = incident.data;
  return (
    <Stack maw={900}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          #{i.number} {i.title}
        </Title>
        <Badge size="lg" color={STATUS_COLORS[i.status]}>
          {i.status}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed">
        {i.severity}
        {i.service && (
          <>
            {' · '}
            <Anchor component={Link} to={`/services/${i.service.id}`} inherit>
              {i.service.name}
            </Anchor>
          </>
        )}
        {' · '}opened <When iso={i.created_at} />
        {i.links.temporal_ui && (
          <>
            {' '}
            ·{' '}
            <Anchor href={i.links.temporal_ui} target="_blank" rel="noreferrer" inherit>
              Workflow in Temporal
            </Anchor>
          </>
        )}
      </Text>
      {i.description && <LinkedText text={i.description} aria-label="Incident description" />}
      {i.service_id && <MaintenanceBanner serviceId={i.service_id} pagingHeldUntil={i.paging_held ? i.paging_held_until : null} />}
      {move.error && (
        <Alert color="red" title="Not done">
          {move.error.message}
        </Alert>
      )}
      <Group gap="xs" wrap="wrap">
        {allowed.map((op) => (
          <Button
            key={op}
            onClick={() => move.mutate(op)}
            loading={move.isPending && move.variables === op}
            variant={op === 'acknowledge' || op === 'resolve' ? 'filled' : 'default'}
          >
            {OPERATION_LABELS[op]}
          </Button>
        ))}
        {i.status === 'TRIGGERED' && (
          <Button variant="default" onClick={() => escalate.mutate()} loading={escalate.isPending}>
            Escalate now
          </Button>
        )}
      </Group>
      <IncidentActions incident={i} />
      <IncidentAlerts incident={i} />
      <Title order={3}>Timeline</Title>
      <Timeline entries={i.timeline} pages={i.pages} />
    </Stack>
  );
}
