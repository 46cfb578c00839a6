import { Badge, Button, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import type { AlertView, IncidentDetail } from '../api/types';
import { AlertCard } from './AlertCard';

/** Alerts fetched per "Show more" (the incident itself carries its latest ones). */
export const ALERTS_PAGE = 100;

/**
 * An incident's alerts: the latest ones the incident came with, then further pages on demand, so a
 * grouped or storm incident holding thousands stays readable (docs/grouping.md). Its grouping rule
 * and key, or its storm, are said above them.
 */
export function IncidentAlerts({ incident }: { incident: IncidentDetail }) {
  const [more, setMore] = useState<AlertView[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = [...incident.alerts, ...more.filter((a) => !incident.alerts.some((b) => b.id === a.id))];
  const loadMore = async () => {
    setLoading(true);
    setError(null);
    try {
      const page = await api<AlertView[]>('GET', `/incidents/${incident.id}/alerts?limit=${ALERTS_PAGE}&offset=${shown.length}`);
      setMore((m) => [...m, ...page.data]);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setLoading(false);
    }
  };
  return (
    <>
      <Title order={3}>Alerts ({incident.alert_count})</Title>
      {incident.grouping && (
        <Text size="sm">
          Grouped by rule <b>{incident.grouping.rule}</b>, group <Badge variant="light">{incident.grouping.key}</Badge>: its alerts page once, here.
        </Text>
      )}
      {incident.storm_source_id && (
        <Text size="sm">Storm incident: its source opened too many incidents at once, so its new alerts join this one, which paged once.</Text>
      )}
      {incident.alerts.length === 0 && <Text c="dimmed">No alerts: this incident was opened by hand.</Text>}
      {shown.map((a) => (
        <AlertCard key={a.id} alert={a} />
      ))}
      {error && <Text c="red">{error}</Text>}
      {shown.length < incident.alert_count && (
        <Button variant="default" onClick={() => void loadMore()} loading={loading}>
          Show more alerts ({incident.alert_count - shown.length} not shown)
        </Button>
      )}
    </>
  );
}
