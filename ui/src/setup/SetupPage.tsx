import { Stack, Title } from '@mantine/core';
import { ReadyNotice } from './ReadyNotice';
import { ServicesCard } from './ServicesCard';
import { TeamsCard } from './TeamsCard';
import { WebhooksCard } from './WebhooksCard';

/** Day-one set-up: teams, services with their escalation policy, and webhooks with their ingestion URL. */
export function SetupPage() {
  return (
    <Stack maw={960}>
      <Title order={2}>Set up</Title>
      <ReadyNotice />
      <TeamsCard />
      <ServicesCard />
      <WebhooksCard />
    </Stack>
  );
}
