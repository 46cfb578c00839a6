import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { ReactElement } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Report } from '../../../src/domain/reports/report';
import type { Severity } from '../../../src/domain/severity';
import { dailySeries, performanceSeries, SEVERITY_COLORS } from './report-series';

const MTTA_COLOR = '#12b886';
const MTTR_COLOR = '#be4bdb';
const NEUTRAL = '#228be6';

/** A chart with its caption, found by that name (role figure). */
function ChartFrame({ title, children }: { title: string; children: ReactElement }) {
  return (
    <Paper withBorder p="sm" radius="md" component="figure" aria-label={title} m={0} miw={0}>
      <Text component="figcaption" fw={600} size="sm" mb="xs">
        {title}
      </Text>
      <ResponsiveContainer width="100%" height={240}>
        {children}
      </ResponsiveContainer>
    </Paper>
  );
}

/** Mean MTTA and MTTR side by side per row (service or team), in minutes. */
function PerformanceChart({ title, rows }: { title: string; rows: Parameters<typeof performanceSeries>[0] }) {
  return (
    <ChartFrame title={title}>
      <BarChart data={performanceSeries(rows)}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="name" />
        <YAxis unit=" min" width={64} />
        <Tooltip />
        <Legend />
        <Bar dataKey="mtta" name="MTTA (mean)" fill={MTTA_COLOR} unit=" min" />
        <Bar dataKey="mttr" name="MTTR (mean)" fill={MTTR_COLOR} unit=" min" />
      </BarChart>
    </ChartFrame>
  );
}

/** The report's charts: whichever its type's data holds. */
export function ReportCharts({ report }: { report: Report }) {
  const daily = dailySeries(report);
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      {daily && (
        <ChartFrame title="Incidents per day">
          <BarChart data={daily.rows}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="day" tickFormatter={(d: string) => d.slice(5)} />
            <YAxis allowDecimals={false} width={32} />
            <Tooltip />
            <Legend />
            {daily.keys.map((k) => (
              <Bar
                key={k}
                dataKey={k}
                name={k === 'incidents' ? 'Incidents' : k}
                stackId="day"
                fill={k in SEVERITY_COLORS ? SEVERITY_COLORS[k as Severity] : NEUTRAL}
              />
            ))}
          </BarChart>
        </ChartFrame>
      )}
      {report.by_severity && (
        <ChartFrame title="Incidents by severity">
          <BarChart data={report.by_severity}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="severity" />
            <YAxis allowDecimals={false} width={32} />
            <Tooltip />
            <Bar dataKey="count" name="Incidents">
              {report.by_severity.map((s) => (
                <Cell key={s.severity} fill={SEVERITY_COLORS[s.severity]} />
              ))}
            </Bar>
          </BarChart>
        </ChartFrame>
      )}
      {report.by_status && (
        <ChartFrame title="Incidents by current status">
          {/* Horizontal: the status names are too long to sit under narrow bars. */}
          <BarChart data={report.by_status} layout="vertical">
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" allowDecimals={false} />
            <YAxis type="category" dataKey="status" width={104} tick={{ fontSize: 11 }} />
            <Tooltip />
            <Bar dataKey="count" name="Incidents" fill={NEUTRAL} />
          </BarChart>
        </ChartFrame>
      )}
      {report.per_service && report.per_service.length > 0 && (
        <PerformanceChart
          title="Mean MTTA and MTTR per service (minutes)"
          rows={report.per_service.map((s) => ({ name: s.service, mtta: s.mtta, mttr: s.mttr }))}
        />
      )}
      {report.per_team && report.per_team.length > 0 && (
        <PerformanceChart title="Mean MTTA and MTTR per team (minutes)" rows={report.per_team.map((t) => ({ name: t.team, mtta: t.mtta, mttr: t.mttr }))} />
      )}
      {report.pages_by_channel && report.pages_by_channel.length > 0 && (
        <ChartFrame title="Pages per channel">
          <BarChart data={report.pages_by_channel}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="channel" />
            <YAxis allowDecimals={false} width={32} />
            <Tooltip />
            <Legend />
            <Bar dataKey="pages" name="Pages" fill={NEUTRAL} />
            <Bar dataKey="failed" name="Failed" fill={SEVERITY_COLORS.CRITICAL} />
          </BarChart>
        </ChartFrame>
      )}
    </SimpleGrid>
  );
}
