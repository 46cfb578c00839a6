import { randomBytes } from 'node:crypto';

/**
 * Routing keys (docs/compat-intake.md): an alert source's key for the PagerDuty- and
 * Opsgenie-compatible intakes, 32 lowercase hex like a PagerDuty integration key.
 */
export const newRoutingKey = (): string => randomBytes(16).toString('hex');

const ROUTING_KEY = /^[0-9a-f]{32}$/;

/** True for a well-formed routing key (32 lowercase hex). */
export const isRoutingKey = (value: string): boolean => ROUTING_KEY.test(value);

const UUID_FORM = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * A presented key as a routing key, or undefined. Opsgenie API keys are UUIDs: an imported
 * integration keeps its key, stored without dashes, so the UUID form is accepted too. Upper case
 * is accepted as PagerDuty accepts it.
 */
export function normaliseRoutingKey(value: string): string | undefined {
  if (value.length > 36) return undefined;
  const key = UUID_FORM.test(value) ? value.replaceAll('-', '') : value;
  const lower = key.toLowerCase();
  return isRoutingKey(lower) ? lower : undefined;
}
