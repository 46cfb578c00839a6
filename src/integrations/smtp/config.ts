/** SMTP's variable: a relay URL, credentials in it. */
import { z } from 'zod';

export const smtpEnv = z.object({
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
    .optional(),
});
