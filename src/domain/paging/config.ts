import { z } from 'zod';
import { CHANNEL_IDS, normaliseAddress, type ChannelId } from '../channels';
import { isUuid } from '../ids';
import { formatPath } from '../issue-path';

/**
 * Validation of paging configuration (contact methods, notification rules, escalation
 * policies), shared by the service layer, the CLI and the dashboard. Pure: no I/O.
 */

export const PAGING_LIMITS = {
  /** A day: longer delays would outlast any sensible page. */
  maxDelaySeconds: 86_400,
  maxRepeat: 9,
  /** Generous caps so one bad request cannot make a policy that pages thousands. */
  maxSteps: 20,
  maxTargetsPerStep: 50,
} as const;

export const uuidField = (what: string) => z.string({ error: 'is required' }).trim().refine(isUuid, `must be ${what} (UUID)`);
export const emailField = z
  .string({ error: 'is required' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'must be an email address' }));
export const contactTypeField = z
  .string({ error: 'is required' })
  .trim()
  .toLowerCase()
  .pipe(z.enum(CHANNEL_IDS, { error: `must be one of ${CHANNEL_IDS.join(', ')}` }));
export const labelField = z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters');
export const nameField = z.string({ error: 'is required' }).trim().min(1, 'is required').max(255, 'must be at most 255 characters');

const wholeNumber = (min: number, max: number, unit = '') =>
  z.number({ error: 'must be a number' }).int('must be a whole number').min(min, `must be at least ${min}${unit}`).max(max, `must be at most ${max}${unit}`);

/** A rule fires this long after the page; 0 is "at once". */
export const ruleDelaySecondsField = wholeNumber(0, PAGING_LIMITS.maxDelaySeconds, ' seconds');
/** Wait before the next step; at least a second so a policy cannot spin. */
export const stepDelaySecondsField = wholeNumber(1, PAGING_LIMITS.maxDelaySeconds, ' seconds');
export const repeatField = wholeNumber(0, PAGING_LIMITS.maxRepeat);
export const ackTimeoutSecondsField = wholeNumber(1, PAGING_LIMITS.maxDelaySeconds, ' seconds');

/** Adds an issue on `address` when it does not fit the contact type (for object schemas holding both). */
export function checkAddress(value: { type: ChannelId; address: string }, ctx: z.RefinementCtx): void {
  const result = normaliseAddress(value.type, value.address);
  if (!result.ok) ctx.addIssue({ code: 'custom', path: ['address'], message: result.message });
}

/** Input of `addContactMethod`; the address comes out normalised. */
export const contactInputSchema = z
  .object({
    email: emailField,
    type: contactTypeField,
    address: z.string({ error: 'is required' }),
    label: labelField.nullish(),
    organizationId: uuidField('a workspace id').optional(),
  })
  .superRefine(checkAddress)
  .transform((v) => ({ ...v, address: (normaliseAddress(v.type, v.address) as { address: string }).address, label: v.label ?? null }));
export type ContactInput = z.input<typeof contactInputSchema>;

/** Input of `addNotificationRule`. */
export const ruleInputSchema = z.object({
  email: emailField,
  contactMethodId: uuidField('a contact method id'),
  delaySeconds: ruleDelaySecondsField,
});
export type RuleInput = z.input<typeof ruleInputSchema>;

export const TARGET_TYPES = ['user', 'schedule', 'team'] as const;

const targetSchema = z.object({
  type: z.enum(TARGET_TYPES, { error: `must be one of ${TARGET_TYPES.join(', ')}` }),
  id: uuidField('an id'),
});

const stepSchema = z.object(
  {
    delay_seconds: stepDelaySecondsField,
    targets: z
      .array(targetSchema, { error: 'must be a list of targets' })
      .min(1, 'needs at least one target')
      .max(PAGING_LIMITS.maxTargetsPerStep, `must have at most ${PAGING_LIMITS.maxTargetsPerStep} targets`),
  },
  { error: 'must be an object with delay_seconds and targets' },
);

/** Escalation steps as stored: unknown keys are dropped. */
export const stepsField = z
  .array(stepSchema, { error: 'must be a list of steps' })
  .min(1, 'needs at least one step')
  .max(PAGING_LIMITS.maxSteps, `must have at most ${PAGING_LIMITS.maxSteps} steps`);

/** Input of `createEscalationPolicy`. */
export const policyInputSchema = z.object({
  organizationId: uuidField('a workspace id'),
  name: nameField,
  steps: stepsField,
  repeat: repeatField.default(0),
  ackTimeoutSeconds: ackTimeoutSecondsField.nullish().transform((v) => v ?? null),
});
export type PolicyInput = z.input<typeof policyInputSchema>;
export type ValidPolicy = z.output<typeof policyInputSchema>;

/** `steps[0].targets[1].id: must be …`, one line for all issues. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => (i.path.length ? `${formatPath(i.path)}: ${i.message}` : i.message)).join('; ');
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** Runs a schema and turns failures into one readable line. */
export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): Parsed<z.output<S>> {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: describeIssues(parsed.error.issues) };
}

/** Every target of a policy with where it sits, for errors that name the bad one. */
export function targetsWithPaths(steps: ValidPolicy['steps']) {
  return steps.flatMap((step, s) => step.targets.map((target, t) => ({ ...target, path: `steps[${s}].targets[${t}]` })));
}
