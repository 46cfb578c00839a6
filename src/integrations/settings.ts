/**
 * An integration's own environment variables (docs/architecture.md, "Adding an integration"): its
 * folder declares their zod schema (ProviderModule `env`) and reads them here from the
 * environment the configuration kept (NotifyConfig `env`). The registry checks every module's
 * schema at startup (src/integrations/registry.ts), so a bad value fails there, naming the
 * variable and never echoing its value.
 */
import type { z } from 'zod';
import type { NotifyConfig } from '../config';
import { fail } from '../config-env';

const parsed = new WeakMap<object, Map<z.ZodType, unknown>>();

/** The integration's variables, parsed once per environment; throws `invalid configuration: VAR: problem`. */
export function integrationEnv<T>(notify: Pick<NotifyConfig, 'env'>, schema: z.ZodType<T>): T {
  const byEnv = parsed.get(notify.env) ?? new Map<z.ZodType, unknown>();
  parsed.set(notify.env, byEnv);
  if (byEnv.has(schema)) return byEnv.get(schema) as T;
  const result = schema.safeParse(notify.env);
  if (!result.success) {
    const issue = result.error.issues[0];
    fail(issue.path.join('.'), issue.message);
  }
  byEnv.set(schema, result.data);
  return result.data;
}
