/**
 * Pushover's variables (docs/integrations/pushover.md): the application token enables the channel;
 * the API URL is Pushover's unless a test points it at the wire fake (testing/wire-fake.ts).
 */
import { z } from 'zod';
import type { NotifyConfig } from '../../config';
import { trimSlash } from '../../config-env';
import { integrationEnv } from '../settings';

/** Pushover's tokens and user keys: 30 letters and digits. */
export const PUSHOVER_KEY_PATTERN = /^[A-Za-z0-9]{30}$/;

export const pushoverEnv = z.object({
  PUSHOVER_APP_TOKEN: z.string().regex(PUSHOVER_KEY_PATTERN, 'must be a Pushover application token: 30 letters and digits').optional(),
  PUSHOVER_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://api.pushover.net'),
});

export interface PushoverConfig {
  appToken: string;
  /** No trailing slash. */
  apiUrl: string;
}

/** The configuration once PUSHOVER_APP_TOKEN is set; undefined: Pushover pages go to the dev inbox. */
export function pushoverConfig(notify: Pick<NotifyConfig, 'env'>): PushoverConfig | undefined {
  const e = integrationEnv(notify, pushoverEnv);
  return e.PUSHOVER_APP_TOKEN === undefined ? undefined : { appToken: e.PUSHOVER_APP_TOKEN, apiUrl: trimSlash(e.PUSHOVER_API_URL) };
}
