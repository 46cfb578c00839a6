import { Anchor, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Report, ReportType } from '../../../src/domain/reports/report';
import { api } from '../api/client';
import { useSession } from '../api/hooks';
import { fieldOf } from '../components/AuthCard';
import { Empty, FormError, LoadError, Loading } from '../components/PageStates';
import { downloadReport } from './download';
import { ReportCharts } from './ReportCharts';
import { ReportFigures } from './ReportFigures';
import { isRangeProblem, REPORT_TYPE_OPTIONS, reportRequest, type ReportRequest } from './report-request';
import { incidentCount } from './report-series';
import { ReportTables } from './ReportTables';

/** Reports: pick a type and days, see charts and tables, download the same report as CSV or PDF. */
export function ReportsPage() {
  const session = useSession();
  const [type, setType] = useState<ReportType>('summary');
  // null until a day is picked: the server's default range (the last 30 days, cut to the plan's history).
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const request = reportRequest(type, range);
  const report = useQuery({
    queryKey: ['report', request],
    queryFn: async () => (await api<Report>('POST', '/reports/generate', request)).data,
    enabled: !isRangeProblem(request),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const shown = report.data;
  // The downloads repeat the report on screen: its type and its resolved days.
  const download = useMutation({
    mutationFn: (format: 'csv' | 'pdf') =>
      downloadReport(
        { type: shown!.type, dateRange: `${shown!.range.from} to ${shown!.range.to}` } satisfies ReportRequest,
        format,
        session.data?.csrf_token ?? '',
      ),
  });

  const problem = isRangeProblem(request) ? request.message : undefined;
  const serverError = report.error?.message;
  const rangeError = problem ?? (fieldOf(serverError) === 'dateRange' ? serverError : undefined);
  const from = range?.from ?? shown?.range.from ?? '';
  const to = range?.to ?? shown?.range.to ?? '';

  return (
    <Stack gap="lg" maw={1200}>
      <Title order={2}>Reports</Title>
      <Group align="start" wrap="wrap" gap="sm">
        <Select
          label="Report type"
          data={REPORT_TYPE_OPTIONS.map(({ value, label }) => ({ value, label }))}
          value={type}
          allowDeselect={false}
          onChange={(v) => v && setType(v as ReportType)}
          description={REPORT_TYPE_OPTIONS.find((o) => o.value === type)?.description}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          w={{ base: '100%', sm: 300 }}
        />
        <TextInput
          label="From"
          type="date"
          value={from}
          max={to || undefined}
          onChange={(e) => setRange({ from: e.currentTarget.value, to })}
          error={rangeError ? true : undefined}
          w={170}
        />
        <TextInput
          label="To"
          type="date"
          value={to}
          min={from || undefined}
          onChange={(e) => setRange({ from, to: e.currentTarget.value })}
          error={rangeError}
          w={{ base: 170, sm: 300 }}
        />
      </Group>
      {shown && (
        <Group gap="sm" wrap="wrap">
          <Button variant="default" onClick={() => download.mutate('csv')} loading={download.isPending && download.variables === 'csv'}>
            Download CSV
          </Button>
          <Button variant="default" onClick={() => download.mutate('pdf')} loading={download.isPending && download.variables === 'pdf'}>
            Download PDF
          </Button>
          <Text size="xs" c="dimmed">
            {shown.range.from} to {shown.range.to}, days in {shown.range.time_zone}
            {shown.range.time_zone_source === 'default_utc' && (
              <>
                {' (set your time zone in '}
                <Anchor component={Link} to="/profile" inherit>
                  My profile
                </Anchor>
                )
              </>
            )}
          </Text>
        </Group>
      )}
      <FormError message={download.error?.message} />
      {!rangeError && <LoadError what="the report" error={report.error} />}
      {report.isPending && !problem && <Loading what="the report" />}
      {shown && (
        <Stack gap="lg" aria-busy={report.isFetching} style={{ opacity: report.isPlaceholderData ? 0.6 : 1 }}>
          {incidentCount(shown) === 0 ? (
            <Empty>
              No incidents were opened from {shown.range.from} to {shown.range.to}. Pick a wider range, or another one.
            </Empty>
          ) : (
            <>
              <ReportFigures report={shown} />
              <ReportCharts report={shown} />
              <ReportTables report={shown} />
            </>
          )}
        </Stack>
      )}
    </Stack>
  );
}
