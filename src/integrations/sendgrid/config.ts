/** SendGrid's variables: an API key sends email through it (unless SMTP_URL is set too). */
import { z } from 'zod';
import type { NotifyConfig } from '../../config';
import { trimSlash } from '../../config-env';
import { integrationSettings } from '../settings';

export const sendgridEnv = z.object({
  SENDGRID_API_KEY: z.string().min(1).optional(),
  SENDGRID_API_BASE_URL: z.string().url().optional(),
});

export interface SendgridSettings {
  apiKey: string;
  /** SENDGRID_API_BASE_URL: another API origin (the test fake), no trailing slash. */
  apiBaseUrl?: string;
}

/** SendGrid's settings once SENDGRID_API_KEY is set; undefined: not configured. */
export const sendgridSettings: (notify: NotifyConfig) => SendgridSettings | undefined = integrationSettings(sendgridEnv, (e) =>
  e.SENDGRID_API_KEY === undefined ? undefined : { apiKey: e.SENDGRID_API_KEY, apiBaseUrl: e.SENDGRID_API_BASE_URL && trimSlash(e.SENDGRID_API_BASE_URL) },
);
