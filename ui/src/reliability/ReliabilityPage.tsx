import { Anchor, Badge, Code, Stack, Table, Text, Title } from '@mantine/core';
import { useApiQuery } from '../api/hooks';
import { Empty, Loading, LoadError } from '../components/PageStates';
import { When } from '../time/When';
import { CARRIER_LABELS, formatSeconds, type ReliabilityStatus } from './reliability';

const WINDOWS = [
  ['hour', 'Last hour'],
  ['day', 'Last 24 hours'],
] as const;

/**
 * Reliability (docs/reliability.md): how fast Klaxon pages after an alert (p50/p99 of the last
 * hour and day, every workspace's pages together), whether the watchdog's canary passes, and
 * which SMS/voice carriers are being skipped.
 */
export function ReliabilityPage() {
  const status = useApiQuery<ReliabilityStatus>(['status'], '/status', { refetchInterval: 60_000 });
  const data = status.data;
  return (
    <Stack>
      <Title order={2}>Reliability</Title>
      <Text size="sm" c="dimmed">
        What Klaxon measures about its own paging. Prometheus reads the same histograms at <Code>/metrics</Code>; docs/reliability.md (“Published latencies”,
        “What Klaxon promises and what to alert on”) says how each is measured and gives alert rules for them.
      </Text>
      {status.isPending && <Loading what="reliability" />}
      <LoadError what="reliability" error={status.error} />
      {data && (
        <>
          <Title order={3}>Alert to first page</Title>
          <Text size="sm" c="dimmed">
            From an incident’s first alert reaching Klaxon to its first page a provider took, across every workspace of this installation.
          </Text>
          <Table aria-label="Alert to first page" withTableBorder maw={520}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Window</Table.Th>
                <Table.Th>p50</Table.Th>
                <Table.Th>p99</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {WINDOWS.map(([key, label]) => (
                <Table.Tr key={key}>
                  <Table.Td>{label}</Table.Td>
                  <Table.Td>{formatSeconds(data.latency[key].p50)}</Table.Td>
                  <Table.Td>{formatSeconds(data.latency[key].p99)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>

          <Title order={3}>Watchdog</Title>
          <section aria-label="Watchdog canary">
            {data.canary.last_success_at ? (
              <Text>
                The canary last passed <When iso={data.canary.last_success_at} />: an alert went through ingestion, the workflow and the paging activity.
              </Text>
            ) : (
              <Text>
                The canary last passed: <b>never</b>. The watchdog is off unless <Code>WATCHDOG_URL</Code> names an outside heartbeat monitor, and then nothing
                outside Klaxon notices when it is down; with it set, the canary has not passed yet.
              </Text>
            )}
          </section>

          <Title order={3}>Carriers</Title>
          {data.carriers === undefined && <Empty>This server does not report carrier health.</Empty>}
          {data.carriers?.length === 0 && <Empty>No SMS or voice carrier is configured: SMS and calls go to the dev inbox.</Empty>}
          {!!data.carriers?.length && (
            <Table aria-label="Carriers" withTableBorder maw={520}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Carrier</Table.Th>
                  <Table.Th>Health</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.carriers.map((c) => (
                  <Table.Tr key={c.carrier}>
                    <Table.Td>{CARRIER_LABELS[c.carrier] ?? c.carrier}</Table.Td>
                    <Table.Td>
                      {c.healthy ? (
                        <Badge color="green">Healthy</Badge>
                      ) : (
                        <>
                          <Badge color="red">Skipped</Badge>{' '}
                          {c.skipped_until ? (
                            <>
                              until <When iso={c.skipped_until} />
                            </>
                          ) : null}
                        </>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Text size="sm">
            <Anchor href="/metrics" target="_blank" rel="noopener">
              The raw histograms (/metrics)
            </Anchor>
          </Text>
        </>
      )}
    </Stack>
  );
}
