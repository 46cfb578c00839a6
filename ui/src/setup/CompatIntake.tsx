import { Button, Code, CopyButton, Group, Text } from '@mantine/core';
import { compatUrls } from './compat-intake';

/** A source's routing key and the URLs PagerDuty and Opsgenie senders use, each with a copy button. */
export function CompatIntake({ name, routingKey, webhookUrl }: { name: string; routingKey: string; webhookUrl: string | null }) {
  const urls = compatUrls(webhookUrl);
  const copy = (value: string, label: string, what: string) => (
    <CopyButton value={value}>
      {({ copied, copy: run }) => (
        <Button size="compact-xs" variant="subtle" onClick={run} aria-label={`Copy the ${what} of ${name}`}>
          {copied ? 'Copied' : label}
        </Button>
      )}
    </CopyButton>
  );
  return (
    <Group gap={4} wrap="wrap" mt={4} aria-label={`PagerDuty and Opsgenie intake of ${name}`}>
      <Text size="xs" c="dimmed">
        Routing key
      </Text>
      <Code>{routingKey}</Code>
      {copy(routingKey, 'Copy key', 'routing key')}
      {urls && copy(urls.pagerDuty, 'PagerDuty URL', 'PagerDuty Events API URL')}
      {urls && copy(urls.opsgenie, 'Opsgenie API URL', 'Opsgenie API URL')}
    </Group>
  );
}
