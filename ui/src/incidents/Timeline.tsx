import { Badge, Group, Stack, Text, Timeline as MantineTimeline, Title } from '@mantine/core';
import type { Page, TimelineEntry } from '../api/types';
import { withReadableTimes } from '../time/format';
import { useNow, useTimeZone } from '../time/useTimeZone';
import { WhenAt } from '../time/When';
import { LinkedText } from './LinkedText';

interface PagingDecisionData {
  paged?: Array<{ email: string; pages: Array<{ channel: string; delay_seconds: number }> }>;
  skipped?: Array<{ email: string; reason: string }>;
}

/** Who was paged and who was not, with why, from a paging decision's data (docs/architecture.md, "Incidents"). */
function Decision({ data }: { data: PagingDecisionData }) {
  return (
    <Stack gap={2} mt={4}>
      {data.paged?.map((p) => (
        <Text size="sm" key={`p-${p.email}`}>
          Paged {p.email}: {p.pages.map((pg) => `${pg.channel}${pg.delay_seconds ? ` after ${pg.delay_seconds}s` : ''}`).join(', ') || 'no channel'}
        </Text>
      ))}
      {data.skipped?.map((s) => (
        <Text size="sm" c="dimmed" key={`s-${s.email}`}>
          Not paged {s.email}: {s.reason.replace(/_/g, ' ')}
        </Text>
      ))}
    </Stack>
  );
}

const DELIVERY_COLORS: Record<string, string> = { delivered: 'green', sent: 'blue', queued: 'gray', failed: 'red', skipped: 'gray' };

/** Entries whose message is what a person wrote (a note: `note`, `note_added`): shown as written, with its links. */
const written = (type: string) => type === 'note' || type.startsWith('note_');

/**
 * The incident's whole story in order: status changes, alerts, paging decisions, notes; then every
 * page with its delivery status. Times are relative with the exact time on hover, and any instant
 * a message holds is written in the person's zone, never as a raw ISO string.
 */
export function Timeline({ entries, pages }: { entries: TimelineEntry[]; pages: Page[] }) {
  const zone = useTimeZone();
  const now = useNow();
  return (
    <Stack>
      <MantineTimeline bulletSize={14} lineWidth={2} active={entries.length - 1} aria-label="Timeline">
        {entries.map((e) => (
          <MantineTimeline.Item key={e.seq} title={written(e.type) ? undefined : withReadableTimes(e.message, zone)}>
            {written(e.type) && <LinkedText size="sm" text={e.message} />}
            <Text size="xs" c="dimmed">
              <WhenAt iso={e.at} now={now} zone={zone} /> · {e.actor.type === 'user' ? (e.actor.email ?? 'a member') : 'Klaxon'}
              {e.actor.via ? ` via ${e.actor.via}` : ''}
            </Text>
            {e.type === 'paging_decision' && e.data && <Decision data={e.data as PagingDecisionData} />}
          </MantineTimeline.Item>
        ))}
      </MantineTimeline>
      {pages.length > 0 && <Title order={4}>Pages sent</Title>}
      <Stack gap={4} role="list" aria-label="Pages sent">
        {pages.map((p) => (
          <Group key={p.id} gap="xs" wrap="wrap" role="listitem" aria-label={`${p.channel} to ${p.user?.email ?? p.to}: ${p.status}`}>
            <Badge variant="light">{p.channel}</Badge>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {p.user?.email ?? p.to}
            </Text>
            <Badge color={DELIVERY_COLORS[p.status] ?? 'gray'}>{p.status}</Badge>
            {p.fallback_reason && (
              <Text size="xs" c="dimmed">
                {withReadableTimes(p.fallback_reason, zone)}
              </Text>
            )}
            {p.error && (
              <Text size="xs" c="red">
                {withReadableTimes(p.error, zone)}
              </Text>
            )}
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}
