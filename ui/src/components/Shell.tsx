import { ActionIcon, AppShell, Badge, Burger, Button, Group, NavLink, Text, Title, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../api/client';
import type { SessionView } from '../api/types';
import { InstallButton, IosInstallHint } from '../pwa/InstallHint';

const NAV = [
  { to: '/', label: 'Incidents' },
  { to: '/on-call', label: 'On call' },
  { to: '/setup', label: 'Set up' },
  { to: '/escalation-policies', label: 'Escalation policies' },
  { to: '/schedules', label: 'Schedules' },
  { to: '/readiness', label: 'Readiness' },
  { to: '/drills', label: 'Paging drills' },
  { to: '/monitoring', label: 'Heartbeats and monitors' },
  { to: '/reports', label: 'Reports' },
  { to: '/members', label: 'Members' },
  { to: '/credentials', label: 'API tokens and keys' },
  { to: '/integrations', label: 'Integrations' },
  { to: '/outgoing-webhooks', label: 'Outgoing webhooks' },
  { to: '/settings/import', label: 'Import' },
  { to: '/settings/sso', label: 'Single sign-on' },
  { to: '/profile', label: 'My profile' },
  { to: '/security', label: 'Security' },
];

/** The frame of every signed-in page: header with workspace, unread badge, dark mode and logout; navigation. */
export function Shell({ session, children }: { session: SessionView; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const unread = useQuery({
    queryKey: ['unread'],
    queryFn: async () => {
      const res = await fetch('/api/notifications/unread-count', { credentials: 'same-origin' });
      return res.ok ? ((await res.json()) as { unread_count: number }).unread_count : 0;
    },
    refetchInterval: 30_000,
  });
  async function logout() {
    await api('POST', '/auth/logout');
    client.clear();
    navigate('/login');
  }
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Title order={3}>Klaxon</Title>
            <Text c="dimmed" visibleFrom="xs" truncate>
              {session.organization.name}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <InstallButton layout="header" />
            <Badge
              component={Link}
              to="/notifications"
              style={{ cursor: 'pointer' }}
              aria-label={`${unread.data ?? 0} unread notifications`}
              variant={unread.data ? 'filled' : 'light'}
              color="red"
            >
              {unread.data ?? 0}
            </Badge>
            <ActionIcon
              variant="default"
              aria-label={scheme === 'dark' ? 'Light mode' : 'Dark mode'}
              onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
            >
              {scheme === 'dark' ? '☀' : '☾'}
            </ActionIcon>
            <Button variant="subtle" size="compact-sm" onClick={logout}>
              Log out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        {NAV.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            active={item.to === '/' ? location.pathname === '/' || location.pathname.startsWith('/incidents') : location.pathname.startsWith(item.to)}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <InstallButton layout="strip" />
        <IosInstallHint />
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
