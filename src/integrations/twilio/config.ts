/** Twilio's variables: all of SID, token and number, or none (then SMS and voice go to the dev inbox). */
import { z } from 'zod';
import type { NotifyConfig } from '../../config';
import { group, trimSlash } from '../../config-env';
import { integrationSettings } from '../settings';

export const twilioEnv = z.object({
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC\w+$/, 'must start with AC')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM_NUMBER: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number like +15551234567')
    .optional(),
  TWILIO_API_BASE_URL: z.string().url().optional(),
});

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  fromNumber: string;
  /** TWILIO_API_BASE_URL: another API origin (the test fake). */
  apiBaseUrl?: string;
}

/** Twilio's settings once all three are set; undefined: SMS and voice go to the dev inbox. */
export const twilioSettings: (notify: NotifyConfig) => TwilioConfig | undefined = integrationSettings(twilioEnv, twilioConfig);

function twilioConfig(e: z.infer<typeof twilioEnv>): TwilioConfig | undefined {
  const twilio = group(e, ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER']);
  return (
    twilio && {
      accountSid: twilio.TWILIO_ACCOUNT_SID,
      authToken: twilio.TWILIO_AUTH_TOKEN,
      fromNumber: twilio.TWILIO_FROM_NUMBER,
      apiBaseUrl: e.TWILIO_API_BASE_URL && trimSlash(e.TWILIO_API_BASE_URL),
    }
  );
}
