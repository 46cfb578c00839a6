/** SendGrid's variables: an API key sends email through it (unless SMTP_URL is set too). */
import { z } from 'zod';
import { trimSlash } from '../../config-env';

export const sendgridEnv = z.object({
  SENDGRID_API_KEY: z.string().min(1).optional(),
  SENDGRID_API_BASE_URL: z.string().url().optional(),
});

export function sendgridConfig(e: z.infer<typeof sendgridEnv>): { apiKey: string; apiBaseUrl?: string } | undefined {
  return e.SENDGRID_API_KEY === undefined
    ? undefined
    : { apiKey: e.SENDGRID_API_KEY, apiBaseUrl: e.SENDGRID_API_BASE_URL && trimSlash(e.SENDGRID_API_BASE_URL) };
}
