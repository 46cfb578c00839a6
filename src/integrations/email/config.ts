/** Email's variable: the sender every email goes out as, whichever of its senders (smtp, sendgrid) sends it. */
import { z } from 'zod';
import type { NotifyConfig } from '../../config';
import { integrationSettings } from '../settings';

export const emailEnv = z.object({
  EMAIL_FROM: z.string().min(3).default('Klaxon <klaxon@localhost>'),
});

/** EMAIL_FROM (`Klaxon <klaxon@localhost>` when unset): the From of pages and account emails. */
export const emailFrom: (notify: NotifyConfig) => string = integrationSettings(emailEnv, (e) => e.EMAIL_FROM);
