/** SMTP's variable: a relay URL, credentials in it. */
import { z } from 'zod';
import type { NotifyConfig } from '../../config';
import { integrationSettings } from '../settings';

export const smtpEnv = z.object({
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
    .optional(),
});

/** SMTP_URL, when set: email goes through this relay (before SendGrid, src/integrations/email/channel.ts). */
export const smtpUrl: (notify: NotifyConfig) => string | undefined = integrationSettings(smtpEnv, (e) => e.SMTP_URL);
