/**
 * A service's chat destinations set per provider (docs/chat.md, "Per-service destinations"):
 * one form per chat provider the registry declares, rendered from the form it declares as data
 * (`GET /api/integrations`), so a new integration needs no code here. Save is `PUT
 * /api/services/{id}/chat/{provider}`, Remove is `DELETE`; a refused field shows next to it.
 * Secret fields are write-only: the saved value shows masked, a new one replaces it.
 */
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import {
  destinationBodyOf,
  INTEGRATIONS_KEY,
  integrationsOf,
  serviceChatKey,
  type ChatProviderIntegrationJson,
  type DestinationForm,
  type IntegrationJson,
  type ServiceChatJson,
} from './chat';

function ProviderForm({ serviceId, provider, saved }: { serviceId: string; provider: ChatProviderIntegrationJson; saved?: Record<string, unknown> }) {
  const [form, setForm] = useState<DestinationForm>({});
  const invalidate = [[...serviceChatKey(serviceId)], [...INTEGRATIONS_KEY]];
  const save = useAction(() => api('PUT', `/services/${serviceId}/chat/${provider.provider}`, destinationBodyOf(provider.form, form)), {
    invalidate,
    onSuccess: () => setForm({}),
  });
  const remove = useAction(() => api('DELETE', `/services/${serviceId}/chat/${provider.provider}`), { invalidate });
  return (
    <Stack gap={6} component="section" aria-label={provider.label}>
      <Group justify="space-between">
        <Title order={4} size="h6">
          {provider.label}
        </Title>
        <Text size="xs" c="dimmed">
          {saved ? 'posts here' : 'not set'}
        </Text>
      </Group>
      {provider.form.map((f) => {
        const shown = saved?.[f.name];
        return (
          <TextInput
            key={f.name}
            label={f.label}
            type={f.kind === 'url' ? 'url' : 'text'}
            required={f.required && !saved}
            placeholder={typeof shown === 'string' ? shown : f.placeholder}
            description={f.help}
            value={form[f.name] ?? ''}
            onChange={(e) => setForm({ ...form, [f.name]: e.currentTarget.value })}
            error={save.fieldError(`settings.${f.name}`)}
          />
        );
      })}
      {save.formError && (
        <Text size="sm" c="red" role="alert">
          {save.formError}
        </Text>
      )}
      <Group gap="xs">
        <Button size="compact-sm" onClick={() => save.mutate()} loading={save.isPending}>
          Save {provider.label}
        </Button>
        {saved && (
          <Button size="compact-sm" variant="default" color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
            Remove {provider.label}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/** Every chat provider's form for one service, in the registry's order. */
export function ChatDestinations({ serviceId }: { serviceId: string }) {
  const list = useApiQuery<{ integrations: IntegrationJson[] }>([...INTEGRATIONS_KEY], '/integrations');
  const chat = useApiQuery<ServiceChatJson>([...serviceChatKey(serviceId)], `/services/${serviceId}/chat`);
  const { providers } = integrationsOf(list.data?.integrations);
  return (
    <Stack gap="md">
      {providers.map((p) => (
        <ProviderForm key={p.provider} serviceId={serviceId} provider={p} saved={chat.data?.destinations?.find((d) => d.provider === p.provider)?.settings} />
      ))}
    </Stack>
  );
}
