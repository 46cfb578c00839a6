import { Anchor, Badge, Button, Card, Group, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useApiQuery, useIncidents } from '../api/hooks';
import { LoadError } from '../components/PageStates';
import { serviceChatKey, type ServiceChatJson } from '../integrations/chat';
import { STATUS_COLORS } from '../incidents/status';
import { MaintenanceBanner } from '../maintenance/MaintenanceBanner';
import { MaintenanceModal } from '../maintenance/MaintenanceModal';
import { ServiceChatModal } from '../setup/ServiceChatModal';
import { ChatDestinations } from '../integrations/ChatDestinations';
import { GroupingEditor } from './GroupingEditor';
import type { Policy, Team } from '../setup/types';
import { useNow, useTimeZone } from '../time/useTimeZone';
import { WhenAt } from '../time/When';

interface ServiceDetail {
  id: string;
  name: string;
  description: string | null;
  owning_team_id: string;
  escalation_policy_id: string | null;
}
interface SourceSummary {
  id: string;
  name: string;
  status: string;
  service_id: string;
  channels: string[] | null;
  /** Past its storm guard's limit: its new alerts join one storm incident (docs/grouping.md). */
  in_storm?: boolean;
}

/** A titled card of the service page. */
function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder padding="sm" component="section" aria-label={title}>
      <Group justify="space-between" wrap="wrap" gap="xs" mb={4}>
        <Title order={3} size="h5">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Card>
  );
}

/** The service's incidents, newest first (the first 50; the incident list filters by service for more). */
function ServiceIncidents({ serviceId }: { serviceId: string }) {
  const incidents = useIncidents({ service_id: serviceId });
  const now = useNow();
  const zone = useTimeZone();
  const shown = (incidents.data?.pages ?? []).flatMap((p) => p.incidents);
  if (incidents.isPending) return <Loader size="sm" aria-label="Loading its incidents" />;
  if (incidents.error) return <LoadError what="its incidents" error={incidents.error} />;
  if (shown.length === 0) return <Text c="dimmed">No incidents yet.</Text>;
  return (
    <Stack gap={4} role="list" aria-label="Incidents of this service">
      {shown.map((i) => (
        <Group key={i.id} role="listitem" aria-label={`#${i.number} ${i.title}`} justify="space-between" wrap="nowrap" gap="xs">
          <Anchor component={Link} to={`/incidents/${i.id}`} size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            #{i.number} {i.title}
          </Anchor>
          <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
            <Text size="xs" c="dimmed" visibleFrom="xs">
              <WhenAt iso={i.created_at} now={now} zone={zone} />
            </Text>
            <Badge size="sm" color={STATUS_COLORS[i.status]}>
              {i.status}
            </Badge>
          </Group>
        </Group>
      ))}
    </Stack>
  );
}

/** One service on one page: its incidents, escalation policy, alert sources, chat destinations and maintenance. */
export function ServicePage() {
  const { id = '' } = useParams();
  const service = useApiQuery<ServiceDetail>(['services', id], `/services/${id}`);
  const teams = useApiQuery<Team[]>(['teams'], '/teams');
  const policies = useApiQuery<Policy[]>(['escalation-policies'], '/escalation-policies');
  const sources = useApiQuery<SourceSummary[]>(['sources', 'all'], '/sources?limit=200');
  const chat = useApiQuery<ServiceChatJson>([...serviceChatKey(id)], `/services/${id}/chat`);
  const [chatOpen, setChatOpen] = useState(false);
  const [maintenanceOpen, setMaintenanceOpen] = useState(false);
  const grouping = useApiQuery<{ rules: Array<{ name: string }> }>(['grouping', id], `/services/${id}/grouping`);
  const [groupingOpen, setGroupingOpen] = useState(false);
  if (service.isPending) return <Loader aria-label="Loading the service" />;
  if (service.error) return <LoadError what="the service" error={service.error} />;
  const s = service.data;
  const team = teams.data?.find((t) => t.id === s.owning_team_id);
  const policy = policies.data?.find((p) => p.id === s.escalation_policy_id);
  const own = (sources.data ?? []).filter((src) => src.service_id === s.id);
  return (
    <Stack maw={900}>
      <div>
        <Text size="sm">
          <Anchor component={Link} to="/services">
            Services
          </Anchor>
        </Text>
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {s.name}
        </Title>
        <Text c="dimmed" size="sm">
          Owned by {team?.name ?? 'its team'}
          {s.description ? ` · ${s.description}` : ''}
        </Text>
      </div>
      <MaintenanceBanner serviceId={s.id} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Section title="Escalation policy">
          {s.escalation_policy_id ? (
            <Anchor component={Link} to="/escalation-policies" size="sm">
              {policy?.name ?? 'Its policy'}
            </Anchor>
          ) : (
            <Text size="sm" c="red">
              None: nobody is paged for its incidents. Choose one on the Set up page.
            </Text>
          )}
        </Section>
        <Section
          title="Maintenance"
          action={
            <Button size="compact-sm" variant="default" onClick={() => setMaintenanceOpen(true)}>
              Maintenance windows
            </Button>
          }
        >
          <Text size="sm" c="dimmed">
            While a window lasts, its incidents page nobody.
          </Text>
        </Section>
        <Section title="Alert sources">
          {own.length === 0 ? (
            <Text size="sm" c="dimmed">
              No source yet: add a webhook on the Set up page.
            </Text>
          ) : (
            <Stack gap={2} role="list" aria-label="Alert sources">
              {own.map((src) => (
                <Group key={src.id} role="listitem" aria-label={src.name} gap="xs" wrap="wrap">
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {src.name}
                  </Text>
                  <Badge size="xs" variant="light" color={src.status === 'ACTIVE' ? 'green' : 'gray'}>
                    {src.status.toLowerCase()}
                  </Badge>
                  {src.in_storm && (
                    <Badge size="xs" color="orange" title="Past its storm guard: its new alerts join one storm incident that paged once">
                      in storm
                    </Badge>
                  )}
                  {src.channels && (
                    <Text size="xs" c="dimmed">
                      notifies by {src.channels.join(', ')}
                    </Text>
                  )}
                </Group>
              ))}
            </Stack>
          )}
        </Section>
        <Section
          title="Chat"
          action={
            <Button size="compact-sm" variant="default" onClick={() => setChatOpen(true)}>
              Chat settings
            </Button>
          }
        >
          <Text size="sm">Slack: {chat.data?.slack_channel_id ? `#${chat.data.slack_channel_name ?? chat.data.slack_channel_id}` : 'no channel'}</Text>
          <Text size="sm">Microsoft Teams: {chat.data?.teams_webhook_url ? 'posts to a Workflows URL' : 'none'}</Text>
          <ChatDestinations serviceId={s.id} />
        </Section>
        <Section
          title="Grouping"
          action={
            <Button size="compact-sm" variant="default" onClick={() => setGroupingOpen(true)}>
              Grouping rules
            </Button>
          }
        >
          <Text size="sm" c={grouping.data?.rules.length ? undefined : 'dimmed'}>
            {grouping.data?.rules.length
              ? `${grouping.data.rules.map((r) => r.name).join(', ')}: matching alerts join their group’s open incident and page once.`
              : 'No rules: each alert opens its own incident unless its dedup key has one open.'}
          </Text>
        </Section>
      </SimpleGrid>
      <Section title="Incidents">
        <ServiceIncidents serviceId={s.id} />
      </Section>
      <ServiceChatModal service={chatOpen ? s : null} onClose={() => setChatOpen(false)} />
      <MaintenanceModal service={maintenanceOpen ? s : null} onClose={() => setMaintenanceOpen(false)} />
      <Modal opened={groupingOpen} onClose={() => setGroupingOpen(false)} title={`Grouping rules of ${s.name}`} size="xl">
        {groupingOpen && <GroupingEditor serviceId={s.id} />}
      </Modal>
    </Stack>
  );
}
