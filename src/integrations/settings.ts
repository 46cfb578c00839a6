/**
 * An integration's own environment variables (docs/architecture.md, "Adding an integration"): its
 * folder declares their zod schema (ProviderModule `env`) and reads them here from the
 * environment the configuration kept (NotifyConfig `env`). The registry checks every module's
 * schema at startup (src/integrations/wiring.ts, `checkIntegrationEnv`), so a bad value fails there, naming the
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

/**
 * An integration's settings accessor (its config.ts): `build` turns its parsed variables into
 * what its sender and routes read, once per configuration, so key files are read and groups
 * checked once. `build` throws `invalid configuration: VAR: problem` (src/config-env.ts `fail`).
 */
export function integrationSettings<E, T>(schema: z.ZodType<E>, build: (env: E, notify: NotifyConfig) => T): (notify: NotifyConfig) => T {
  const built = new WeakMap<object, { value: T }>();
  return (notify) => {
    const known = built.get(notify);
    if (known) return known.value;
    const value = build(integrationEnv(notify, schema), notify);
    built.set(notify, { value });
    return value;
  };
}
