import { ActionIcon, AppShell, Badge, Burger, Button, Group, NavLink, Text, Title, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../api/client';
import type { SessionView } from '../api/types';
import { InstallButton, IosInstallHint } from '../pwa/InstallHint';

/** The sidebar, grouped by what a person came to do (docs/incident-page.md, "Navigation"). */
export const NAV_GROUPS: Array<{ label: string; items: Array<{ to: string; label: string }> }> = [
  {
    label: 'Respond',
    items: [
      { to: '/', label: 'Incidents' },
      { to: '/on-call', label: 'On call' },
      { to: '/notifications', label: 'Notifications' },
    ],
  },
  {
    label: 'Configure',
    items: [
      { to: '/setup', label: 'Set up' },
      { to: '/services', label: 'Services' },
      { to: '/escalation-policies', label: 'Escalation policies' },
      { to: '/schedules', label: 'Schedules' },
      { to: '/monitoring', label: 'Heartbeats and monitors' },
      { to: '/integrations', label: 'Integrations' },
      { to: '/outgoing-webhooks', label: 'Outgoing webhooks' },
    ],
  },
  {
    label: 'Insights',
    items: [
      { to: '/readiness', label: 'Readiness' },
      { to: '/drills', label: 'Paging drills' },
      { to: '/reports', label: 'Reports' },
      { to: '/reliability', label: 'Reliability' },
    ],
  },
  {
    label: 'Admin',
    items: [
      { to: '/members', label: 'Members' },
      { to: '/credentials', label: 'API tokens and keys' },
      { to: '/settings/import', label: 'Import' },
      { to: '/settings/sso', label: 'Single sign-on' },
      { to: '/profile', label: 'My profile' },
      { to: '/security', label: 'Security' },
    ],
  },
];

/** Whether a sidebar entry is the page shown (the incident list also covers each incident's page). */
export const isActive = (to: string, pathname: string) =>
  to === '/' ? pathname === '/' || pathname.startsWith('/incidents') : pathname === to || pathname.startsWith(`${to}/`);

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
      <AppShell.Navbar p="xs" component="nav" aria-label="Main" style={{ overflowY: 'auto' }}>
        {NAV_GROUPS.map((group) => (
          <div key={group.label} role="group" aria-labelledby={`nav-${group.label}`}>
            <Text id={`nav-${group.label}`} size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={2}>
              {group.label}
            </Text>
            {group.items.map((item) => (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={item.label}
                active={isActive(item.to, location.pathname)}
                onClick={close}
                rightSection={
                  item.to === '/notifications' && unread.data ? (
                    <Badge size="sm" color="red" circle={unread.data < 10} aria-label={`${unread.data} unread`}>
                      {unread.data}
                    </Badge>
                  ) : undefined
                }
              />
            ))}
          </div>
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
