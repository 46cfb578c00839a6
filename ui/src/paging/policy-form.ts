/**
 * The escalation-policy editor's form and the API's body, each way: minutes in the form, seconds
 * on the wire; numbers typed as text so a half-typed value is not lost. Also where the server's
 * errors (`steps.1.delay_seconds: …`, `steps[0].targets[1]: …`) belong in the form. Pure.
 */

export const TARGET_TYPES = ['user', 'schedule', 'team'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];
export interface Target {
  type: TargetType;
  id: string;
}
export interface PolicyStep {
  delay_seconds: number;
  targets: Target[];
}
/** A policy as the API answers it. */
export interface Policy {
  id: string;
  name: string;
  steps: PolicyStep[];
  repeat: number;
  ack_timeout_seconds: number | null;
}
/** A policy in `GET /api/escalation-policies`: with the services that page with it. */
export interface ListedPolicy extends Policy {
  service_ids: string[];
}
/** The body of `POST` and `PUT /api/escalation-policies`. */
export type PolicyBody = Omit<Policy, 'id'>;

export interface StepForm {
  /** Stable across moves, for React lists. */
  key: string;
  delayMinutes: string;
  targets: Target[];
}
export interface PolicyForm {
  name: string;
  steps: StepForm[];
  repeat: string;
  /** Empty: never. */
  ackTimeoutMinutes: string;
}

/** What is wrong with one step, by the input it belongs to. */
export interface StepErrors {
  delay?: string;
  targets?: string;
  other?: string;
}
/** What is wrong with a policy form, by where it is shown. */
export interface PolicyErrors {
  name?: string;
  repeat?: string;
  ackTimeout?: string;
  /** About the list of steps as a whole (`steps: needs at least one step`). */
  steps?: string;
  step: Record<number, StepErrors>;
  /** Naming no field of the form (a 403, a 503): shown above it. */
  form?: string;
}

export const MAX_REPEAT = 9;
export const DEFAULT_STEP_MINUTES = '5';

let keys = 0;
const nextKey = () => `step-${++keys}`;

export const newStep = (targets: Target[] = []): StepForm => ({ key: nextKey(), delayMinutes: DEFAULT_STEP_MINUTES, targets });

export const emptyPolicyForm = (): PolicyForm => ({ name: '', steps: [newStep()], repeat: '0', ackTimeoutMinutes: '' });

/** Seconds as minutes for an input: whole where they are, else to two decimals (90 → "1.5"). */
export const secondsToMinutes = (seconds: number): string => String(Math.round((seconds / 60) * 100) / 100);

/** Typed minutes as whole seconds, or undefined when it is not a number. */
export function minutesToSeconds(text: string): number | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(trimmed)) return undefined;
  return Math.round(Number(trimmed) * 60);
}

export const formFromPolicy = (p: Policy): PolicyForm => ({
  name: p.name,
  steps: p.steps.map((s) => ({ key: nextKey(), delayMinutes: secondsToMinutes(s.delay_seconds), targets: s.targets.map((t) => ({ ...t })) })),
  repeat: String(p.repeat),
  ackTimeoutMinutes: p.ack_timeout_seconds === null ? '' : secondsToMinutes(p.ack_timeout_seconds),
});

/** The steps with the one at `index` moved `by` places (−1 up, +1 down); unchanged at either end. */
export function moveStep(steps: StepForm[], index: number, by: -1 | 1): StepForm[] {
  const to = index + by;
  if (to < 0 || to >= steps.length) return steps;
  const moved = [...steps];
  [moved[index], moved[to]] = [moved[to], moved[index]];
  return moved;
}

/**
 * The API body, or what the browser can already tell is wrong (text that is not a number). Ranges
 * and required targets are left to the server, whose messages land in the same places.
 */
export function formToBody(form: PolicyForm): { body: PolicyBody; errors?: undefined } | { body?: undefined; errors: PolicyErrors } {
  const errors: PolicyErrors = { step: {} };
  const steps = form.steps.map((s, i) => {
    const delay = minutesToSeconds(s.delayMinutes);
    if (delay === undefined) errors.step[i] = { delay: 'must be a number of minutes, e.g. 5 or 0.5' };
    return { delay_seconds: delay ?? 0, targets: s.targets.map(({ type, id }) => ({ type, id })) };
  });
  const repeat = /^\s*\d+\s*$/.test(form.repeat) ? Number(form.repeat) : undefined;
  if (repeat === undefined) errors.repeat = `must be a whole number from 0 to ${MAX_REPEAT}`;
  const ack = form.ackTimeoutMinutes.trim() === '' ? null : minutesToSeconds(form.ackTimeoutMinutes);
  if (ack === undefined) errors.ackTimeout = 'must be a number of minutes, or empty for never';
  if (errors.repeat || errors.ackTimeout || Object.keys(errors.step).length) return { errors };
  return { body: { name: form.name.trim(), steps, repeat: repeat ?? 0, ack_timeout_seconds: ack ?? null } };
}

const join = (a: string | undefined, b: string) => (a ? `${a}; ${b}` : b);

/** `steps[0].targets[1]` and `steps.0.targets.1` alike → ['steps', '0', 'targets', '1']. */
const segments = (path: string) =>
  path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);

/**
 * Sorts a server message into the places of the form. The server joins several issues with "; "
 * and starts each with its field; a message without one (403, 409, 503) goes above the form.
 */
export function placeServerError(message: string): PolicyErrors {
  const errors: PolicyErrors = { step: {} };
  // Split only where the next part starts with a field path, so "a; b" inside a message stays whole.
  for (const part of message.split(/; (?=[a-z_][\w.[\]]*: )/i)) {
    const match = /^([a-z_][\w.[\]]*): /i.exec(part);
    const [field, index, sub] = match ? segments(match[1]) : [];
    if (field === 'name') errors.name = join(errors.name, part);
    else if (field === 'repeat') errors.repeat = join(errors.repeat, part);
    else if (field === 'ack_timeout_seconds') errors.ackTimeout = join(errors.ackTimeout, part);
    else if (field === 'steps' && index !== undefined && /^\d+$/.test(index)) {
      const step = (errors.step[Number(index)] ??= {});
      if (sub === 'delay_seconds') step.delay = join(step.delay, part);
      else if (sub === 'targets') step.targets = join(step.targets, part);
      else step.other = join(step.other, part);
    } else if (field === 'steps') errors.steps = join(errors.steps, part);
    else errors.form = join(errors.form, part);
  }
  return errors;
}

/** A duration for people: "30 s", "5 min", "1 h 30 min". */
export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [h && `${h} h`, m && `${m} min`, s && `${s} s`].filter(Boolean);
  return parts.length ? parts.join(' ') : '0 s';
}

/** A target as people know it: its name, or its kind and the start of its id when it is unknown here. */
export type NameOf = (target: Target) => string;

/** "Ada, Ops team → after 5 min → Primary schedule": what a policy does, in one line. */
export function summariseSteps(steps: PolicyStep[], nameOf: NameOf): string {
  return steps.map((s, i) => `${s.targets.map(nameOf).join(', ')}${i < steps.length - 1 ? ` → after ${formatDuration(s.delay_seconds)} →` : ''}`).join(' ');
}
