import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { DurationStats } from '../../../src/domain/reports/durations';
import type { Report } from '../../../src/domain/reports/report';
import { formatSeconds } from '../monitoring/durations';

/** A duration figure, or a dash when no incident counted. */
export const duration = (s: number | null | undefined) => (s === null || s === undefined ? '—' : formatSeconds(s));

function Figure({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <Paper withBorder p="sm" radius="md" role="group" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
      {detail && (
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      )}
    </Paper>
  );
}

const stats = (label: string, s: DurationStats) => (
  <Figure
    key={label}
    label={label}
    value={duration(s.mean)}
    detail={s.count ? `p50 ${duration(s.p50)} · p90 ${duration(s.p90)} · ${s.count} counted` : 'no incident counted'}
  />
);

/** The headline numbers: totals and MTTA/MTTR (mean, p50, p90), whichever the report has. */
export function ReportFigures({ report }: { report: Report }) {
  const t = report.totals;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }}>
      {t && <Figure label="Incidents" value={String(t.incidents)} detail={`${t.open} still open`} />}
      {t && <Figure label="Acknowledged" value={String(t.acknowledged)} detail={`${t.resolved} resolved`} />}
      {t && <Figure label="Alerts and pages" value={`${t.alerts} / ${t.pages}`} detail="alerts received / pages sent" />}
      {report.mtta && stats('MTTA', report.mtta)}
      {report.mttr && stats('MTTR', report.mttr)}
    </SimpleGrid>
  );
}
