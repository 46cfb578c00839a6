import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import { INTEGRATIONS_KEY, integrationsOf, type IntegrationJson } from '../integrations/chat';
import { CONTACTS, RULES, type ContactMethod } from './contact-methods';

/**
 * "Slack DMs" on My profile (docs/chat.md, "Slack DMs"): links this member to their Slack
 * account — Klaxon finds them in the workspace's Slack by their verified email — so
 * notification rules can page them by Slack DM; unlinking removes that contact method and its
 * rules. Shown only when the Slack app is configured.
 */
export function SlackDirectMessages({ methods }: { methods: ContactMethod[] }) {
  const integrations = useApiQuery<{ integrations: IntegrationJson[] }>([...INTEGRATIONS_KEY], '/integrations');
  const slack = integrationsOf(integrations.data?.integrations).slack;
  const linked = methods.find((m) => m.type === 'slack');
  const refresh = { invalidate: [CONTACTS, RULES] };
  const link = useAction(() => api('POST', '/me/slack/link'), refresh);
  const unlink = useAction(() => api('DELETE', '/me/slack/link'), refresh);
  if (!slack?.configured) return null;
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={4}>Slack DMs</Title>
        {linked ? (
          <Group gap="xs">
            <Badge color="green" variant="light">
              Linked
            </Badge>
            <Text size="sm">
              Slack member {linked.address}
              {slack.team_name ? ` in ${slack.team_name}` : ''}: add it to your notification rules to be paged by Slack DM.
            </Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {slack.connected
              ? 'Link your Slack account to be paged by Slack DM (with Acknowledge, Resolve and Escalate buttons) and to act on incidents from Slack. Klaxon finds you by your verified email.'
              : 'Slack is not connected to this workspace yet: an admin connects it on the Integrations page.'}
          </Text>
        )}
        <Group>
          {linked ? (
            <Button variant="default" size="compact-sm" loading={unlink.isPending} onClick={() => unlink.mutate()}>
              Unlink Slack
            </Button>
          ) : (
            <Button size="compact-sm" disabled={!slack.connected} loading={link.isPending} onClick={() => link.mutate()}>
              Link my Slack account
            </Button>
          )}
        </Group>
        {(link.errorMessage ?? unlink.errorMessage) && (
          <Alert color="red" role="alert" p="xs">
            {link.errorMessage ?? unlink.errorMessage}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
