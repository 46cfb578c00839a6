import { Anchor, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import { FormError, LoadError, Loading } from '../components/PageStates';
import {
  channelOptions,
  chatBodyOf,
  chatFormOf,
  INTEGRATIONS_KEY,
  integrationsOf,
  serviceChatKey,
  SLACK_CHANNELS_KEY,
  type ChatForm,
  type IntegrationJson,
  type ServiceChatJson,
  type SlackChannel,
} from '../integrations/chat';
import { TeamsTestButton } from '../integrations/TeamsTestButton';

/**
 * Where a service's incidents go in chat (docs/chat.md, "Per-service destinations"): a channel of
 * the connected Slack and a Microsoft Teams Workflows URL. Save sends only what changed; the
 * server's refusal shows next to the field it names.
 */
export function ServiceChatModal({ service, onClose }: { service: { id: string; name: string } | null; onClose: () => void }) {
  return (
    <Modal opened={service !== null} onClose={onClose} title={service ? `Chat for ${service.name}` : 'Chat'} centered size="lg">
      {service && <ServiceChatForm serviceId={service.id} onClose={onClose} />}
    </Modal>
  );
}

function ServiceChatForm({ serviceId, onClose }: { serviceId: string; onClose: () => void }) {
  const chat = useApiQuery<ServiceChatJson>([...serviceChatKey(serviceId)], `/services/${serviceId}/chat`);
  const integrations = useApiQuery<{ integrations: IntegrationJson[] }>([...INTEGRATIONS_KEY], '/integrations');
  if (chat.isPending || integrations.isPending) return <Loading what="the chat settings" />;
  if (chat.error || integrations.error) {
    return (
      <>
        <LoadError what="the chat settings" error={chat.error} />
        <LoadError what="the integrations" error={integrations.error} />
      </>
    );
  }
  return (
    <ChatFields
      serviceId={serviceId}
      saved={chat.data}
      connected={integrationsOf(integrations.data?.integrations).slack?.connected === true}
      onClose={onClose}
    />
  );
}

function ChatFields({ serviceId, saved, connected, onClose }: { serviceId: string; saved: ServiceChatJson; connected: boolean; onClose: () => void }) {
  const [form, setForm] = useState<ChatForm>(chatFormOf(saved));
  const channels = useApiQuery<{ channels: SlackChannel[] }>([...SLACK_CHANNELS_KEY], '/integrations/slack/channels', { enabled: connected });
  const save = useAction(async (body: ReturnType<typeof chatBodyOf>) => (await api<ServiceChatJson>('PUT', `/services/${serviceId}/chat`, body)).data, {
    invalidate: [[...serviceChatKey(serviceId)], [...INTEGRATIONS_KEY]],
    onSuccess: (data) => setForm(chatFormOf(data)),
  });
  const current = save.data ?? saved;
  const body = chatBodyOf(form, current);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The dialog is rendered inside the Services card's form (through a portal): its submit must not reach that form.
    e.stopPropagation();
    save.mutate(body);
  };
  return (
    <Stack component="form" onSubmit={submit} gap="sm" aria-label="Chat destinations">
      {connected ? (
        <Select
          label="Slack channel"
          description="Incidents of this service are posted here. Private channels show once the Klaxon app is invited."
          data={channelOptions(channels.data?.channels, current)}
          value={form.slackChannelId}
          onChange={(v) => setForm({ ...form, slackChannelId: v ?? 'none' })}
          searchable
          nothingFoundMessage="No such channel"
          allowDeselect={false}
          error={save.fieldError('slack_channel_id') ?? channels.error?.message}
          disabled={channels.isPending && !channels.error}
        />
      ) : (
        <Text size="sm" c="dimmed">
          Slack is not connected.{' '}
          <Anchor component={Link} to="/integrations">
            Connect it on the Integrations page
          </Anchor>{' '}
          to choose a channel.
        </Text>
      )}
      <TextInput
        label="Microsoft Teams Workflows URL"
        description="From a Teams workflow “When a Teams webhook request is received”. It is a secret: anyone with it can post to your channel."
        placeholder="https://…"
        value={form.teamsWebhookUrl}
        onChange={(e) => setForm({ ...form, teamsWebhookUrl: e.currentTarget.value })}
        error={save.fieldError('teams_webhook_url')}
      />
      <TeamsTestButton serviceId={serviceId} disabled={!current.teams_webhook_url} />
      <FormError message={save.formError} />
      {save.isSuccess && Object.keys(body).length === 0 && (
        <Text size="sm" c="green" role="status">
          Saved.
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button type="submit" loading={save.isPending} disabled={Object.keys(body).length === 0}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
