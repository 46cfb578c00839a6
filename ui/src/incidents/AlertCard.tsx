import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { AlertView } from '../api/types';
import { When } from '../time/When';
import { LinkedText } from './LinkedText';
import { safeHttpUrl, senderDetails } from './sender-details';

/** Key–value pairs, each key above its value on a phone and beside it on a wider screen. */
function Pairs({ label, pairs }: { label: string; pairs: Array<[string, string]> }) {
  if (pairs.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={4} verticalSpacing={2} role="list" aria-label={label}>
      {pairs.map(([k, v]) => (
        <Group key={k} gap={6} wrap="nowrap" align="baseline" role="listitem" aria-label={`${k}: ${v}`} style={{ minWidth: 0 }}>
          <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
            {k}
          </Text>
          <LinkedText size="sm" text={v} style={{ minWidth: 0 }} />
        </Group>
      ))}
    </SimpleGrid>
  );
}

/** One alert with everything its sender said: message and description as written, source, dedup key, labels, links and details. */
export function AlertCard({ alert: a }: { alert: AlertView }) {
  const details = senderDetails(a.metadata);
  const url = safeHttpUrl(a.url);
  return (
    <Card withBorder padding="sm" component="article" aria-label={`Alert ${a.title}`}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {a.title}
          </Text>
          <Text size="xs" c="dimmed">
            {a.severity} · {a.status} · received <When iso={a.created_at} />
          </Text>
        </Group>
        {a.message && <LinkedText size="sm" text={a.message} aria-label="Message" />}
        {a.description && <LinkedText size="sm" c="dimmed" text={a.description} aria-label="Description" />}
        <Pairs
          label="Sender"
          pairs={[...(a.source ? [['source', a.source] as [string, string]] : []), ...(a.dedup_key ? [['dedup key', a.dedup_key] as [string, string]] : [])]}
        />
        {Object.keys(a.tags ?? {}).length > 0 && (
          <Group gap={4} wrap="wrap" aria-label="Tags">
            {Object.entries(a.tags ?? {}).map(([k, v]) => (
              <Badge key={k} variant="outline" style={{ maxWidth: '100%' }}>
                {k}: {v}
              </Badge>
            ))}
          </Group>
        )}
        <Pairs label="Labels" pairs={details.labels} />
        {(url || details.links.length > 0) && (
          <Group gap="sm" wrap="wrap" aria-label="Links">
            {url && (
              <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }}>
                {url}
              </Anchor>
            )}
            {details.links.map((l) => (
              <Anchor key={`${l.label}-${l.href}`} href={l.href} target="_blank" rel="noopener noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }}>
                {l.label}
              </Anchor>
            ))}
          </Group>
        )}
        <Pairs label="Details" pairs={details.details} />
      </Stack>
    </Card>
  );
}
