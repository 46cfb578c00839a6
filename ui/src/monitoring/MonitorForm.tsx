import { Button, Group, Modal, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useAction } from '../api/hooks';
import { FormError } from '../components/PageStates';
import { formatSeconds } from './durations';
import { formOfMonitor, isProblem, monitorBody, monitorChanges, NEW_MONITOR, type FormProblem, type MonitorFormValues } from './monitor-form';
import type { Monitor, MonitorMethod, Service } from './types';

/** Creates a monitor (no `monitor` given) or changes one, in a modal; the server's errors sit by their fields. */
export function MonitorForm({ monitor, services, opened, onClose }: { monitor?: Monitor; services: Service[]; opened: boolean; onClose: () => void }) {
  const [values, setValues] = useState<MonitorFormValues>(monitor ? formOfMonitor(monitor) : NEW_MONITOR);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const save = useAction((body: object) => (monitor ? api('PUT', `/monitors/${monitor.id}`, body) : api('POST', '/monitors', body)), {
    invalidate: [['monitors'], ['uptime']],
    onSuccess: onClose,
  });
  const set = <K extends keyof MonitorFormValues>(key: K, value: MonitorFormValues[K]) => setValues({ ...values, [key]: value });
  // A problem found here, else the server's, for the field it names.
  const errorOf = (field: string) => (problem?.field === field ? problem.message : save.fieldError(field));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = monitorBody(values);
    if (isProblem(body)) return setProblem(body);
    setProblem(null);
    save.mutate(monitor ? monitorChanges(monitor, body) : body);
  };
  const seconds = (v: number | string) => (typeof v === 'number' ? formatSeconds(v) : undefined);

  return (
    <Modal opened={opened} onClose={onClose} title={monitor ? `Edit monitor ${monitor.name}` : 'New HTTP monitor'} size="lg">
      <form onSubmit={submit} aria-label={monitor ? `Edit monitor ${monitor.name}` : 'New monitor'}>
        <Stack gap="sm">
          <FormError message={save.formError} />
          <Group grow wrap="wrap" align="start">
            <TextInput label="Name" required miw={180} value={values.name} onChange={(e) => set('name', e.currentTarget.value)} error={errorOf('name')} />
            <Select
              label="Service"
              required
              miw={180}
              data={services.map((s) => ({ value: s.id, label: s.name }))}
              value={values.service_id || null}
              onChange={(v) => set('service_id', v ?? '')}
              error={errorOf('service_id')}
            />
          </Group>
          <Group grow wrap="wrap" align="start">
            <TextInput
              label="URL"
              required
              miw={220}
              type="url"
              value={values.url}
              onChange={(e) => set('url', e.currentTarget.value)}
              error={errorOf('url')}
            />
            <Select
              label="Method"
              maw={120}
              miw={100}
              data={['GET', 'HEAD', 'POST']}
              allowDeselect={false}
              value={values.method}
              onChange={(v) => set('method', (v ?? 'GET') as MonitorMethod)}
              error={errorOf('method')}
            />
          </Group>
          <Group grow wrap="wrap" align="start">
            <NumberInput
              label="Interval (seconds)"
              required
              miw={150}
              min={1}
              allowDecimal={false}
              value={values.interval_seconds}
              onChange={(v) => set('interval_seconds', v)}
              description={seconds(values.interval_seconds)}
              error={errorOf('interval_seconds')}
            />
            <NumberInput
              label="Timeout (seconds)"
              required
              miw={150}
              min={1}
              max={30}
              allowDecimal={false}
              value={values.timeout_seconds}
              onChange={(v) => set('timeout_seconds', v)}
              error={errorOf('timeout_seconds')}
            />
            <NumberInput
              label="Failure threshold"
              miw={150}
              min={1}
              max={10}
              allowDecimal={false}
              value={values.failure_threshold}
              onChange={(v) => set('failure_threshold', v)}
              description="failed checks in a row before an incident"
              error={errorOf('failure_threshold')}
            />
          </Group>
          <Group grow wrap="wrap" align="start">
            <TextInput
              label="Expected status codes"
              miw={180}
              placeholder="any 2xx"
              description="e.g. 200, 204; empty: any 2xx"
              value={values.expected_status_codes}
              onChange={(e) => set('expected_status_codes', e.currentTarget.value)}
              error={errorOf('expected_status_codes')}
            />
            <TextInput
              label="Keyword"
              miw={180}
              description="the response must contain it (case-sensitive)"
              value={values.keyword}
              onChange={(e) => set('keyword', e.currentTarget.value)}
              error={errorOf('keyword')}
            />
          </Group>
          <Group justify="flex-end" wrap="wrap">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {monitor ? 'Save monitor' : 'Create monitor'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
