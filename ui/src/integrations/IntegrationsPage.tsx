import { Alert, Anchor, Badge, Button, Card, Code, Group, List, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { can } from '../../../src/domain/permissions';
import { CHAT_MIN_PLAN, PLAN_LIMITS, PLANS, type Plan } from '../../../src/domain/plans';
import { api } from '../api/client';
import { useApiQuery, useSession } from '../api/hooks';
import { ConfirmModal } from '../components/ConfirmModal';
import { LoadError, Loading } from '../components/PageStates';
import { useConfirmedAction } from '../components/useConfirmedAction';
import {
  INTEGRATIONS_KEY,
  integrationsOf,
  slackNoticeOf,
  type ChatProviderIntegrationJson,
  type IntegrationJson,
  type SlackIntegrationJson,
  type TeamsIntegrationJson,
} from './chat';

const chatInPlan = (plan: string | undefined) => (PLANS as readonly string[]).includes(plan ?? '') && PLAN_LIMITS[plan as Plan].chat;

/**
 * Integrations (docs/chat.md): the workspace's Slack (connect through Slack's OAuth page,
 * disconnect) and Microsoft Teams (a Workflows URL per service). Each service's channel and URL
 * are set under "Chat" on the Set up page.
 */
export function IntegrationsPage() {
  const session = useSession();
  const location = useLocation();
  const list = useApiQuery<{ integrations: IntegrationJson[] }>([...INTEGRATIONS_KEY], '/integrations');
  const disconnect = useConfirmedAction(() => api('DELETE', '/integrations/slack'), { invalidate: [[...INTEGRATIONS_KEY], ['services']] });
  const notice = slackNoticeOf(location.search);
  if (session.isPending) return <Loading what="your session" />;
  const role = session.data?.role;
  const manager = role !== undefined && can(role, 'integrations.manage');
  const inPlan = chatInPlan(session.data?.organization.plan);
  const { slack, teams, providers } = integrationsOf(list.data?.integrations);

  return (
    <Stack gap="lg" maw={1000}>
      <Stack gap={4}>
        <Title order={2}>Integrations</Title>
        <Text size="sm" c="dimmed">
          Incidents in your team chat: each service posts to its own Slack channel or Microsoft Teams channel. Choose them under “Chat” on the Set up page.
        </Text>
      </Stack>
      {notice && (
        <Alert color={notice.ok ? 'green' : 'red'} title={notice.title} role={notice.ok ? 'status' : 'alert'}>
          {notice.text}
        </Alert>
      )}
      {!inPlan && (
        <Alert color="yellow" title="Not on your plan">
          Slack and Microsoft Teams come with {CHAT_MIN_PLAN} and above.
        </Alert>
      )}
      <LoadError what="the integrations" error={list.error} />
      {list.isPending ? (
        <Loading what="the integrations" />
      ) : (
        <>
          {slack && <SlackCard slack={slack} manager={manager} inPlan={inPlan} onDisconnect={() => disconnect.ask(true)} />}
          {teams && <TeamsCard teams={teams} />}
          {providers
            .filter((p) => p.provider !== 'microsoft-teams')
            .map((p) => (
              <ProviderCard key={p.provider} provider={p} />
            ))}
        </>
      )}
      {manager && (
        <Text size="sm">
          What was sent to chat and outgoing webhooks, what is still being tried and what was given up:{' '}
          <Anchor component={Link} to="/integrations/deliveries">
            Deliveries
          </Anchor>
          .
        </Text>
      )}
      <ConfirmModal {...disconnect.modal} title={`Disconnect Slack${slack?.team_name ? ` (${slack.team_name})` : ''}?`} confirmLabel="Disconnect">
        Klaxon forgets the Slack token and every service’s Slack channel; nothing more is posted to Slack. Teams URLs stay. To revoke the app in Slack too,
        remove it there.
      </ConfirmModal>
    </Stack>
  );
}

function SlackCard({ slack, manager, inPlan, onDisconnect }: { slack: SlackIntegrationJson; manager: boolean; inPlan: boolean; onDisconnect: () => void }) {
  const status = !slack.configured ? 'not configured' : slack.connected ? 'connected' : 'not connected';
  return (
    <Card withBorder component="section" aria-label="Slack">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} size="h4">
            Slack
          </Title>
          <Badge variant="light" color={slack.connected ? 'green' : 'gray'}>
            {status}
          </Badge>
        </Group>
        {!slack.configured ? (
          <>
            <Text size="sm">
              This Klaxon has no Slack app yet. Create one at api.slack.com/apps from{' '}
              <Anchor href="/api/integrations/slack/manifest" target="_blank" rel="noopener">
                Klaxon’s app manifest
              </Anchor>{' '}
              (its URLs are already this Klaxon’s), then set these variables and restart Klaxon:
            </Text>
            <List size="sm">
              <List.Item>
                <Code>SLACK_CLIENT_ID</Code> and <Code>SLACK_CLIENT_SECRET</Code> (Basic Information → App Credentials)
              </List.Item>
              <List.Item>
                <Code>SLACK_SIGNING_SECRET</Code> (the same page)
              </List.Item>
            </List>
          </>
        ) : slack.connected ? (
          <>
            <Text size="sm">
              Connected to <b>{slack.team_name}</b>
              {slack.installed_by && <> by {slack.installed_by.name ?? slack.installed_by.email}</>}
              {slack.installed_at && <> on {new Date(slack.installed_at).toLocaleString()}</>}.
            </Text>
            {manager && (
              <Group>
                <Button variant="default" color="red" onClick={onDisconnect}>
                  Disconnect
                </Button>
              </Group>
            )}
          </>
        ) : !inPlan ? (
          <Text size="sm" c="dimmed">
            Connecting Slack needs the {CHAT_MIN_PLAN} plan or above.
          </Text>
        ) : manager ? (
          <>
            <Text size="sm">Install the Klaxon app in your Slack workspace: Slack asks you to allow it, then sends you back here.</Text>
            <Group>
              {/* A plain link: the browser goes to Slack and comes back to /hooks/slack/oauth. */}
              <Button component="a" href="/api/integrations/slack/install">
                Connect Slack
              </Button>
            </Group>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            Slack is not connected. A Billing Owner or an Account Admin can connect it.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** A chat provider set per service (Discord, Mattermost, …), from the registry: its name, how many services post to it, where its settings go. */
function ProviderCard({ provider }: { provider: ChatProviderIntegrationJson }) {
  return (
    <Card withBorder component="section" aria-label={provider.label}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} size="h4">
            {provider.label}
          </Title>
          <Badge variant="light" color={provider.connected ? 'green' : 'gray'}>
            {provider.services_with_webhook === 1 ? '1 service' : `${provider.services_with_webhook} services`}
          </Badge>
        </Group>
        <Text size="sm">Needs no app: set it for each service under “Chat” on the service’s page.</Text>
      </Stack>
    </Card>
  );
}

function TeamsCard({ teams }: { teams: TeamsIntegrationJson }) {
  return (
    <Card withBorder component="section" aria-label="Microsoft Teams">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} size="h4">
            Microsoft Teams
          </Title>
          <Badge variant="light" color={teams.connected ? 'green' : 'gray'}>
            {teams.services_with_webhook === 1 ? '1 service' : `${teams.services_with_webhook} services`}
          </Badge>
        </Group>
        <Text size="sm">
          Teams needs no app. In the Teams channel, add a workflow from the template “Post to a channel when a webhook request is received”, copy its URL, and
          paste it under “Chat” for the service on the Set up page. “Send test card” there checks it.
        </Text>
      </Stack>
    </Card>
  );
}
