import { loadConfig } from '../../src/config';
import { checkIntegrationEnv } from '../../src/integrations/wiring';
import type { NotifyConfig } from '../../src/config';

/** What a role's startup does with an environment: the core's configuration, then every integration's own variables. */
export function startWith(env: Record<string, string>): NotifyConfig {
  const { notify } = loadConfig(env);
  checkIntegrationEnv(notify);
  return notify;
}

/** The error startup fails with ('' when it does not). */
export function startupError(env: Record<string, string>): string {
  try {
    startWith(env);
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}
