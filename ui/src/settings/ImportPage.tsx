import { Alert, Anchor, Badge, Button, Card, Code, Group, List, PasswordInput, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useState, type FormEvent } from 'react';
import { can } from '../../../src/domain/permissions';
import { api } from '../api/client';
import { useAction, useSession } from '../api/hooks';
import { Empty, FormError, Loading } from '../components/PageStates';
import { TableHead } from '../components/TableHead';
import {
  bodyOf,
  EMPTY_FORM,
  KIND_LABELS,
  KINDS,
  klaxonIdOf,
  peopleOf,
  SYSTEMS,
  total,
  type ImportForm,
  type ImportReport,
  type ImportSystem,
} from './import-form';

/**
 * Settings → Import (docs/importers.md): bring a PagerDuty or Opsgenie account in. "Preview" runs
 * a dry run and shows the plan (counts per kind, what is skipped and why, the mapping); "Import"
 * then runs it for real. The credential stays in this form: it is sent with each request only.
 */
export function ImportPage() {
  const session = useSession();
  const [form, setForm] = useState<ImportForm>(EMPTY_FORM);
  const [result, setResult] = useState<{ report: ImportReport; dryRun: boolean } | null>(null);
  const run = useAction((dryRun: boolean) => api<ImportReport>('POST', `/import/${form.system}`, bodyOf(form, dryRun)), {
    onSuccess: (res, dryRun) => setResult({ report: res.data, dryRun }),
  });
  if (session.isPending) return <Loading what="your session" />;
  const role = session.data?.role;
  const system = SYSTEMS[form.system];
  const header = (
    <Stack gap={4}>
      <Title order={2}>Import</Title>
      <Text size="sm" c="dimmed">
        Bring people (with their phone numbers, email addresses and notification rules), teams, schedules, escalation policies and services in from PagerDuty or
        Opsgenie. People are members at once and paged on the numbers they had; integration keys stay the same, so senders keep posting as they do. Importing
        again updates what was imported and creates nothing twice.
      </Text>
    </Stack>
  );
  if (!role || !can(role, 'import.run')) {
    return (
      <Stack maw={1100}>
        {header}
        <Empty>Only Billing Owners and Account Admins import. Ask one of them.</Empty>
      </Stack>
    );
  }
  // A changed input makes the plan shown stale: it must be previewed again before importing.
  const change = (next: Partial<ImportForm>) => {
    setForm({ ...form, ...next });
    setResult(null);
    run.reset();
  };
  const preview = (e: FormEvent) => {
    e.preventDefault();
    run.mutate(true);
  };
  const planned = result?.dryRun === true;

  return (
    <Stack gap="lg" maw={1100}>
      {header}
      <Card withBorder radius="md" p="md" component="form" aria-label="Import from" onSubmit={preview}>
        <Stack gap="sm">
          <SegmentedControl
            aria-label="Source system"
            value={form.system}
            onChange={(v) => change({ system: v as ImportSystem, credential: '' })}
            data={[
              { value: 'pagerduty', label: 'PagerDuty' },
              { value: 'opsgenie', label: 'Opsgenie' },
            ]}
          />
          <PasswordInput
            label={system.credential}
            description={system.credentialHelp}
            required
            autoComplete="off"
            value={form.credential}
            onChange={(e) => change({ credential: e.currentTarget.value })}
            error={run.fieldError(form.system === 'pagerduty' ? 'api_token' : 'api_key')}
          />
          <TextInput
            label="API URL"
            description={`Leave empty for ${system.defaultUrl}${form.system === 'opsgenie' ? ' (https://api.eu.opsgenie.com for the EU instance)' : ''}`}
            placeholder={system.defaultUrl}
            value={form.apiUrl}
            onChange={(e) => change({ apiUrl: e.currentTarget.value })}
            error={run.fieldError('api_url')}
          />
          <Group>
            <Button type="submit" variant={planned ? 'default' : 'filled'} loading={run.isPending && run.variables === true} disabled={!form.credential.trim()}>
              Preview
            </Button>
            {planned && (
              <Button onClick={() => run.mutate(false)} loading={run.isPending && run.variables === false}>
                Import
              </Button>
            )}
          </Group>
          <FormError message={run.formError} />
        </Stack>
      </Card>
      {result && <ReportView report={result.report} dryRun={result.dryRun} label={SYSTEMS[form.system].label} />}
    </Stack>
  );
}

function ReportView({ report, dryRun, label }: { report: ImportReport; dryRun: boolean; label: string }) {
  return (
    <Stack gap="md">
      <Alert color={dryRun ? 'blue' : 'green'} title={dryRun ? 'The plan (nothing written yet)' : 'Imported'}>
        {dryRun
          ? `${total(report.created)} to create, ${total(report.updated)} to update, ${report.skipped.length} skipped. Check it, then Import.`
          : `${total(report.created)} created, ${total(report.updated)} updated, ${report.skipped.length} skipped.`}
        {report.created.user > 0 &&
          (dryRun
            ? ' People who are not members yet become members at once, with a welcome email to set a password or sign in by SSO.'
            : ' New members got a welcome email to set a password or sign in by SSO.')}
        {!dryRun && (
          <Text size="sm" mt="xs">
            Imported numbers page at once; they show as not yet confirmed until a test page reaches them.{' '}
            <Anchor component={Link} to="/readiness">
              Check readiness
            </Anchor>
          </Text>
        )}
      </Alert>
      <PeopleCard report={report} dryRun={dryRun} label={label} />
      <Card withBorder radius="md" p="md">
        <Title order={4}>Per kind</Title>
        <Table aria-label="Per kind" striped>
          <TableHead columns={['Kind', dryRun ? 'Would create' : 'Created', dryRun ? 'Would update' : 'Updated']} />
          <Table.Tbody>
            {KINDS.map((k) => (
              <Table.Tr key={k}>
                <Table.Td>{KIND_LABELS[k]}</Table.Td>
                <Table.Td>{report.created[k]}</Table.Td>
                <Table.Td>{report.updated[k]}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      <Card withBorder radius="md" p="md">
        <Title order={4}>Skipped or changed on the way ({report.skipped.length})</Title>
        {report.skipped.length === 0 ? (
          <Text size="sm" c="dimmed">
            Everything maps as it is.
          </Text>
        ) : (
          <Table aria-label="Skipped" striped>
            <TableHead columns={['Kind', 'Name', `${label} id`, 'Why']} />
            <Table.Tbody>
              {report.skipped.map((s, i) => (
                <Table.Tr key={`${s.external_id}-${i}`}>
                  <Table.Td>{KIND_LABELS[s.kind]}</Table.Td>
                  <Table.Td>{s.name}</Table.Td>
                  <Table.Td>
                    <Code>{s.external_id}</Code>
                  </Table.Td>
                  <Table.Td>{s.why}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      <Card withBorder radius="md" p="md">
        <Title order={4}>Mapping ({report.mapping.length})</Title>
        <Table aria-label="Mapping" striped>
          <TableHead columns={['Kind', 'Name', `${label} id`, 'In Klaxon']} />
          <Table.Tbody>
            {report.mapping.map((m) => (
              <Table.Tr key={`${m.kind}-${m.external_id}`}>
                <Table.Td>{KIND_LABELS[m.kind]}</Table.Td>
                <Table.Td>{m.name}</Table.Td>
                <Table.Td>
                  <Code>{m.external_id}</Code>
                </Table.Td>
                <Table.Td>{m.id ? <Code>{m.id}</Code> : <Text size="sm">{klaxonIdOf(m, dryRun, report)}</Text>}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </Stack>
  );
}

const STATUS_COLORS = { member: 'green', 'new member': 'blue', invited: 'orange' } as const;

/** The source's people: whether each is a member, becomes one or is invited, with the contact methods and rules that come along. */
function PeopleCard({ report, dryRun, label }: { report: ImportReport; dryRun: boolean; label: string }) {
  const people = peopleOf(report);
  if (people.length === 0) return null;
  const list = (items: string[], none: string) =>
    items.length ? (
      <List size="sm" spacing={0}>
        {items.map((item, i) => (
          <List.Item key={`${item}-${i}`}>{item}</List.Item>
        ))}
      </List>
    ) : (
      <Text size="sm" c="dimmed">
        {none}
      </Text>
    );
  return (
    <Card withBorder radius="md" p="md">
      <Title order={4}>People ({people.length})</Title>
      <Text size="sm" c="dimmed">
        {dryRun ? 'Who will be paged, and how, once imported.' : 'Who is paged, and how.'} Contact methods page at once; push to {label}’s app does not come.
      </Text>
      <Table aria-label="People" striped>
        <TableHead columns={['Name', `${label} id`, 'In Klaxon', 'Contact methods', 'Notification rules']} />
        <Table.Tbody>
          {people.map((p) => (
            <Table.Tr key={p.externalId}>
              <Table.Td>{p.name}</Table.Td>
              <Table.Td>
                <Code>{p.externalId}</Code>
              </Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLORS[p.status]} variant="light">
                  {p.status}
                </Badge>
              </Table.Td>
              <Table.Td>{list(p.contactMethods, 'none')}</Table.Td>
              <Table.Td>{list(p.rules, 'none')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
