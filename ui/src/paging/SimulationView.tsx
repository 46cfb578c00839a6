import { Alert, Badge, Stack, Table, Text, Title } from '@mantine/core';

/** One page in a what-if answer (docs/what-if.md). */
export interface SimulatedPage {
  user_id: string | null;
  name: string | null;
  channel: string;
  at: string;
}

/** What POST /api/escalation-policies/simulate answers. */
export interface Simulation {
  from: string;
  to: string;
  truncated: boolean;
  /** Why not everything was replayed (docs/what-if.md, "Bounds"): too many incidents, or the page budget ran out. */
  truncated_reason?: 'incidents' | 'pages' | null;
  /** Incidents replayed over every part of the answer (`incidents` is this part). */
  incident_count?: number;
  differing_count?: number;
  /** The rest of a split answer (over 5 MiB): not fetched, the first part holds the totals and the differences. */
  next_cursor?: string | null;
  incidents: Array<{
    incident_id: string;
    number: number;
    title: string;
    opened_at: string;
    ended_at: string | null;
    would_page: SimulatedPage[];
    actually_paged: SimulatedPage[];
    differs: boolean;
  }>;
  totals: Array<{ user_id: string; name: string; would_pages: number; night_pages: number; actual_pages: number }>;
}

/** Incidents listed at most: the differing ones first. */
const SHOWN = 50;

const CHANNEL = { sms: 'SMS', voice: 'call', email: 'email', push: 'push' } as Record<string, string>;

/** "Ada by SMS at 03:12", for a list of pages. */
function describePages(pages: SimulatedPage[], openedAt: string): string {
  if (pages.length === 0) return 'Nobody';
  const opened = new Date(openedAt).getTime();
  return pages
    .map((p) => {
      const after = Math.round((new Date(p.at).getTime() - opened) / 60_000);
      return `${p.name ?? 'someone'} by ${CHANNEL[p.channel] ?? p.channel}${after > 0 ? ` after ${after} min` : ''}`;
    })
    .join(', ');
}

/** A what-if's answer: totals per person, then the incidents, those that would page differently highlighted. */
export function SimulationView({ result }: { result: Simulation }) {
  const differing = result.incidents.filter((i) => i.differs);
  const listed = [...differing, ...result.incidents.filter((i) => !i.differs)].slice(0, SHOWN);
  const replayed = result.incident_count ?? result.incidents.length;
  const differingCount = result.differing_count ?? differing.length;
  return (
    <Stack gap="sm" role="region" aria-label="Simulation">
      <Title order={4} size="h5">
        Simulation on the last 30 days
      </Title>
      <Text size="sm">
        {replayed === 0 && !result.truncated
          ? 'This service had no incidents in the last 30 days: there is nothing to replay.'
          : `${replayed} incident${replayed === 1 ? '' : 's'} replayed with this draft and today’s schedules and rules: ` +
            (differingCount === 0 ? 'each would page exactly as it did.' : `${differingCount} would page differently (highlighted).`)}
      </Text>
      {result.truncated && (
        <Alert color="gray">
          {result.truncated_reason === 'pages'
            ? `This draft pages so much that the replay stopped at 100,000 pages: only the oldest ${replayed} incidents were replayed.`
            : `Only the oldest ${replayed} incidents of the range were replayed.`}
        </Alert>
      )}
      {result.totals.length > 0 && (
        <Table aria-label="Pages per person" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Person</Table.Th>
              <Table.Th>Would be paged</Table.Th>
              <Table.Th>At night (22:00–07:00 their time)</Table.Th>
              <Table.Th>Were paged</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.totals.map((t) => {
              const changed = t.would_pages !== t.actual_pages;
              return (
                <Table.Tr key={t.user_id} aria-label={t.name} data-differs={changed || undefined} bg={changed ? 'yellow.1' : undefined}>
                  <Table.Td fw={600}>{t.name}</Table.Td>
                  <Table.Td>{t.would_pages}</Table.Td>
                  <Table.Td>{t.night_pages}</Table.Td>
                  <Table.Td>{t.actual_pages}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {listed.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table aria-label="Replayed incidents" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>#</Table.Th>
                <Table.Th>Incident</Table.Th>
                <Table.Th>Would page</Table.Th>
                <Table.Th>Paged</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {listed.map((i) => (
                <Table.Tr key={i.incident_id} aria-label={`#${i.number}`} data-differs={i.differs || undefined} bg={i.differs ? 'yellow.1' : undefined}>
                  <Table.Td>{i.number}</Table.Td>
                  <Table.Td>
                    {i.title}{' '}
                    {i.differs && (
                      <Badge color="yellow" variant="light" size="sm">
                        differs
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{describePages(i.would_page, i.opened_at)}</Table.Td>
                  <Table.Td>{describePages(i.actually_paged, i.opened_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {replayed > listed.length && (
        <Text size="xs" c="dimmed">
          The first {listed.length} of {replayed} are listed, those that differ first.
        </Text>
      )}
    </Stack>
  );
}
