import { Button, Fieldset, Group, List, MultiSelect, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { FormError } from '../components/PageStates';
import {
  emptyPolicyForm,
  formatDuration,
  formFromPolicy,
  formToBody,
  MAX_REPEAT,
  moveStep,
  newStep,
  placeServerError,
  type Policy,
  type PolicyBody,
  type PolicyErrors,
  type PolicyForm,
  type StepForm,
} from './policy-form';
import { targetFromValue, targetNamer, targetOptions, targetValue, type Directory } from './targets';
import { SimulationView, type Simulation } from './SimulationView';

/** "Simulate on the last 30 days": the draft replayed on a service's real incidents (docs/what-if.md). */
export interface PolicySimulation {
  services: Array<{ id: string; name: string }>;
  /** The service picked at first: one that pages with this policy, if any. */
  defaultServiceId?: string;
  run: (body: PolicyBody, serviceId: string) => void;
  pending?: boolean;
  result?: Simulation;
  error?: string;
}

export interface PolicyEditorProps {
  /** The policy to change; none for a new one. */
  initial?: Policy;
  directory: Directory;
  /** Members and Team Managers: the policy as text, no controls to change it. */
  readOnly?: boolean;
  saving?: boolean;
  /** The server's message about the last save, placed next to the field it names. */
  serverError?: string;
  onSave: (body: PolicyBody) => void;
  onCancel?: () => void;
  simulation?: PolicySimulation;
}

const REPEAT_OPTIONS = Array.from({ length: MAX_REPEAT + 1 }, (_, n) => ({ value: String(n), label: n === 0 ? '0 (run once)' : String(n) }));

/** Creates or changes an escalation policy: name, ordered steps of targets and delays, repeat, acknowledgement timeout. */
export function PolicyEditor(props: PolicyEditorProps) {
  if (props.readOnly) return props.initial ? <PolicyView policy={props.initial} directory={props.directory} onClose={props.onCancel} /> : null;
  return <PolicyFormView {...props} />;
}

function PolicyFormView({ initial, directory, saving, serverError, onSave, onCancel, simulation }: PolicyEditorProps) {
  const [form, setForm] = useState<PolicyForm>(() => (initial ? formFromPolicy(initial) : emptyPolicyForm()));
  const [checked, setChecked] = useState<PolicyErrors | undefined>();
  const errors = checked ?? (serverError ? placeServerError(serverError) : { step: {} });
  const set = (changes: Partial<PolicyForm>) => setForm((f) => ({ ...f, ...changes }));
  const setStep = (index: number, changes: Partial<StepForm>) =>
    setForm((f) => ({ ...f, steps: f.steps.map((s, i) => (i === index ? { ...s, ...changes } : s)) }));

  function submit(e: FormEvent) {
    e.preventDefault();
    const result = formToBody(form);
    setChecked(result.errors);
    if (result.body) onSave(result.body);
  }

  const [serviceId, setServiceId] = useState<string | null>(simulation?.defaultServiceId ?? simulation?.services[0]?.id ?? null);
  function simulate() {
    const result = formToBody(form);
    setChecked(result.errors);
    if (result.body && serviceId) simulation?.run(result.body, serviceId);
  }

  const title = initial ? `Edit ${initial.name}` : 'New escalation policy';
  return (
    <Stack component="form" onSubmit={submit} aria-label={title} gap="sm">
      <Title order={3} size="h4">
        {title}
      </Title>
      <FormError message={errors.form} />
      <TextInput label="Name" required value={form.name} onChange={(e) => set({ name: e.currentTarget.value })} error={errors.name} maw={480} />
      {form.steps.map((step, i) => (
        <Fieldset key={step.key} legend={`Step ${i + 1}`} aria-label={`Step ${i + 1}`}>
          <Stack gap="xs">
            <MultiSelect
              label="Targets"
              description="Who this step pages: people, on-call schedules, teams"
              placeholder={step.targets.length ? undefined : 'Pick people, schedules or teams'}
              data={targetOptions(directory, step.targets)}
              value={step.targets.map(targetValue)}
              onChange={(values) => setStep(i, { targets: values.map(targetFromValue) })}
              searchable
              nothingFoundMessage="No such person, schedule or team"
              error={errors.step[i]?.targets}
            />
            <TextInput
              label="Delay (minutes)"
              description={
                i < form.steps.length - 1
                  ? 'Wait this long for an acknowledgement before the next step'
                  : form.repeat === '0'
                    ? 'Wait this long before the list ends'
                    : 'Wait this long before running the list again'
              }
              inputMode="decimal"
              value={step.delayMinutes}
              onChange={(e) => setStep(i, { delayMinutes: e.currentTarget.value })}
              error={errors.step[i]?.delay}
              maw={320}
            />
            {errors.step[i]?.other && (
              <Text c="red" size="sm" role="alert">
                {errors.step[i].other}
              </Text>
            )}
            <Group gap="xs" wrap="wrap">
              <Button
                size="compact-sm"
                variant="default"
                disabled={i === 0}
                onClick={() => set({ steps: moveStep(form.steps, i, -1) })}
                aria-label={`Move step ${i + 1} up`}
              >
                Up
              </Button>
              <Button
                size="compact-sm"
                variant="default"
                disabled={i === form.steps.length - 1}
                onClick={() => set({ steps: moveStep(form.steps, i, 1) })}
                aria-label={`Move step ${i + 1} down`}
              >
                Down
              </Button>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                disabled={form.steps.length === 1}
                onClick={() => set({ steps: form.steps.filter((_, j) => j !== i) })}
                aria-label={`Remove step ${i + 1}`}
              >
                Remove
              </Button>
            </Group>
          </Stack>
        </Fieldset>
      ))}
      {errors.steps && (
        <Text c="red" size="sm" role="alert">
          {errors.steps}
        </Text>
      )}
      <Group>
        <Button variant="default" onClick={() => set({ steps: [...form.steps, newStep()] })}>
          Add step
        </Button>
      </Group>
      <Group align="start" wrap="wrap">
        <Select
          label="Repeat"
          description="How many more times the whole list runs"
          data={REPEAT_OPTIONS}
          value={form.repeat}
          onChange={(v) => set({ repeat: v ?? '0' })}
          allowDeselect={false}
          error={errors.repeat}
          w={220}
        />
        <TextInput
          label="Acknowledgement timeout (minutes)"
          description="An acknowledged incident returns to triggered after this long; empty: never"
          placeholder="Never"
          inputMode="decimal"
          value={form.ackTimeoutMinutes}
          onChange={(e) => set({ ackTimeoutMinutes: e.currentTarget.value })}
          error={errors.ackTimeout}
          maw={320}
        />
      </Group>
      <Group>
        <Button type="submit" loading={saving}>
          {initial ? 'Save changes' : 'Create policy'}
        </Button>
        {onCancel && (
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </Group>
      {simulation && (
        <Fieldset legend="Before saving" aria-label="Simulate">
          <Stack gap="xs">
            <Group align="end" wrap="wrap">
              <Select
                label="Service"
                description="Whose incidents to replay this draft on"
                data={simulation.services.map((s) => ({ value: s.id, label: s.name }))}
                value={serviceId}
                onChange={setServiceId}
                allowDeselect={false}
                w={260}
              />
              <Button variant="light" onClick={simulate} loading={simulation.pending} disabled={!serviceId}>
                Simulate on the last 30 days
              </Button>
            </Group>
            {simulation.error && (
              <Text c="red" size="sm" role="alert">
                {simulation.error}
              </Text>
            )}
            {simulation.result && <SimulationView result={simulation.result} />}
          </Stack>
        </Fieldset>
      )}
    </Stack>
  );
}

/** A policy for those who may not change it: what it does, in words. */
function PolicyView({ policy, directory, onClose }: { policy: Policy; directory: Directory; onClose?: () => void }) {
  const nameOf = targetNamer(directory, { short: true });
  return (
    <Stack gap="xs" aria-label={policy.name} role="region">
      <Title order={3} size="h4">
        {policy.name}
      </Title>
      <List type="ordered" spacing="xs">
        {policy.steps.map((s, i) => (
          <List.Item key={i}>
            Page {s.targets.map(nameOf).join(', ')}; wait {formatDuration(s.delay_seconds)}
            {i < policy.steps.length - 1 ? ' before the next step' : ''}
          </List.Item>
        ))}
      </List>
      <Text size="sm">{policy.repeat ? `Then runs the list ${policy.repeat} more time(s).` : 'Runs the list once.'}</Text>
      <Text size="sm">
        {policy.ack_timeout_seconds === null
          ? 'An acknowledged incident stays acknowledged.'
          : `An acknowledged incident returns to triggered after ${formatDuration(policy.ack_timeout_seconds)}.`}
      </Text>
      {onClose && (
        <Group>
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      )}
    </Stack>
  );
}
