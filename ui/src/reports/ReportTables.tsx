import { Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Report, ServicePerformance, TeamPerformance } from '../../../src/domain/reports/report';
import { TableHead } from '../components/TableHead';
import { duration } from './ReportFigures';

/** Incidents listed on the page at most; the CSV and PDF downloads hold them all (the PDF up to 500). */
export const INCIDENT_ROWS_SHOWN = 200;

function DataTable({ title, head, minWidth = 560, children }: { title: string; head: string[]; minWidth?: number; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={4}>{title}</Title>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table aria-label={title} striped verticalSpacing={4}>
          <TableHead columns={head} />
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

const PERFORMANCE_HEAD = ['Incidents', 'MTTA mean', 'MTTA p90', 'MTTR mean', 'MTTR p90'];
const performanceCells = (r: ServicePerformance | TeamPerformance) => (
  <>
    <Table.Td>{r.incidents}</Table.Td>
    <Table.Td>{duration(r.mtta.mean)}</Table.Td>
    <Table.Td>{duration(r.mtta.p90)}</Table.Td>
    <Table.Td>{duration(r.mttr.mean)}</Table.Td>
    <Table.Td>{duration(r.mttr.p90)}</Table.Td>
  </>
);

/** The report's tables: per service and team, its incidents, night-time pages, noisiest sources. */
export function ReportTables({ report }: { report: Report }) {
  const incidents = report.incidents ?? [];
  return (
    <Stack gap="lg">
      {report.per_service && report.per_service.length > 0 && (
        <DataTable title="Per service" head={['Service', 'Team', ...PERFORMANCE_HEAD]}>
          {report.per_service.map((s) => (
            <Table.Tr key={`${s.service_id}-${s.team_id}`}>
              <Table.Td>{s.service}</Table.Td>
              <Table.Td>{s.team}</Table.Td>
              {performanceCells(s)}
            </Table.Tr>
          ))}
        </DataTable>
      )}
      {report.per_team && report.per_team.length > 0 && (
        <DataTable title="Per team" head={['Team', ...PERFORMANCE_HEAD]}>
          {report.per_team.map((t) => (
            <Table.Tr key={t.team_id}>
              <Table.Td>{t.team}</Table.Td>
              {performanceCells(t)}
            </Table.Tr>
          ))}
        </DataTable>
      )}
      {incidents.length > 0 && (
        <DataTable title="Incidents" head={['#', 'Title', 'Service', 'Severity', 'Status', 'Opened', 'To acknowledge', 'To resolve']} minWidth={900}>
          {incidents.slice(0, INCIDENT_ROWS_SHOWN).map((i) => (
            <Table.Tr key={i.number}>
              <Table.Td>{i.number}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{i.title}</Table.Td>
              <Table.Td>{i.service ?? '(no service)'}</Table.Td>
              <Table.Td>{i.severity}</Table.Td>
              <Table.Td>{i.status}</Table.Td>
              <Table.Td>{new Date(i.created_at).toLocaleString()}</Table.Td>
              <Table.Td>{duration(i.tta)}</Table.Td>
              <Table.Td>{duration(i.ttr)}</Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      {incidents.length > INCIDENT_ROWS_SHOWN && (
        <Text size="sm" c="dimmed">
          The first {INCIDENT_ROWS_SHOWN} of {incidents.length} incidents; the CSV download lists them all.
        </Text>
      )}
      {report.night_pages && report.night_pages.length > 0 && (
        <DataTable title="Night-time pages (22:00–06:59 on their clock)" head={['Person', 'Time zone', 'Pages', 'At night']}>
          {report.night_pages.map((p) => (
            <Table.Tr key={p.user_id}>
              <Table.Td>{p.name ?? p.email}</Table.Td>
              <Table.Td>{p.time_zone}</Table.Td>
              <Table.Td>{p.pages}</Table.Td>
              <Table.Td>{p.night_pages}</Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      {report.noisy_sources && report.noisy_sources.length > 0 && (
        <DataTable title="Noisiest sources" head={['Source', 'Service', 'Alerts']}>
          {report.noisy_sources.map((s) => (
            <Table.Tr key={s.source_id}>
              <Table.Td>{s.source}</Table.Td>
              <Table.Td>{s.service ?? '—'}</Table.Td>
              <Table.Td>{s.alerts}</Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
    </Stack>
  );
}
