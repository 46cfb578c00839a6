import { Anchor, Badge, Button, Card, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { useAction } from '../api/hooks';
import { Empty, FormError, LoadError, Loading } from '../components/PageStates';
import type { InAppNotificationJson as AppNotification } from '../../../src/services/paging/in-app-notifications';

/** My in-app notifications (one per page I received), newest first; the header's badge counts the unread ones. */
export function NotificationsPage() {
  const [which, setWhich] = useState<'unread' | 'all'>('unread');
  const list = useQuery({
    queryKey: ['notifications', which],
    queryFn: async () => {
      const res = await api<AppNotification[]>('GET', `/notifications?unread=${which === 'unread'}&limit=100`);
      return { items: res.data, total: (res.meta as { total: number }).total };
    },
  });
  const markAll = useAction(() => api('POST', '/notifications/mark-all-read'), { invalidate: [['notifications'], ['unread']] });
  return (
    <Stack maw={900}>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Notifications</Title>
        <Button variant="default" onClick={() => markAll.mutate()} loading={markAll.isPending} disabled={!list.data?.items.some((n) => !n.read)}>
          Mark all read
        </Button>
      </Group>
      <SegmentedControl
        aria-label="Which notifications"
        value={which}
        onChange={(v) => setWhich(v as 'unread' | 'all')}
        data={[
          { value: 'unread', label: 'Unread' },
          { value: 'all', label: 'All' },
        ]}
        w="fit-content"
      />
      <FormError message={markAll.errorMessage} />
      {list.isPending && <Loading what="notifications" />}
      <LoadError what="notifications" error={list.error} />
      {list.data?.items.length === 0 && (
        <Empty>
          {which === 'unread' ? 'Nothing unread. Each page you receive is listed here too.' : 'No notifications yet. Each page you receive is listed here.'}
        </Empty>
      )}
      <Stack gap="xs" role="list" aria-label="Notifications">
        {list.data?.items.map((n) => (
          <Card key={n.id} withBorder padding="sm" role="listitem" aria-label={n.title}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              {n.incident ? (
                <Anchor component={Link} to={`/incidents/${n.incident.id}`} fw={600} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                  {n.title}
                </Anchor>
              ) : (
                <Text fw={600} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                  {n.title}
                </Text>
              )}
              {!n.read && (
                <Badge color="red" style={{ flexShrink: 0 }}>
                  unread
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              {n.body} · {new Date(n.created_at).toLocaleString()}
            </Text>
          </Card>
        ))}
      </Stack>
      {list.data && list.data.total > list.data.items.length && (
        <Text size="sm" c="dimmed">
          Showing the newest {list.data.items.length} of {list.data.total}.
        </Text>
      )}
    </Stack>
  );
}
