import { EntitySchema } from '@mikro-orm/core';

/**
 * A callback that acted (an SMS reply, a keypress, a used email link or push action), kept so
 * the same callback replayed acts no more: Twilio signatures carry no timestamp.
 */
export interface ProviderCallback {
  /** `twilio-sms:<MessageSid>`, `twilio-voice:<CallSid>:<Digits>`, `token:<sha256>`. */
  key: string;
  receivedAt: Date;
}

export const ProviderCallbackSchema = new EntitySchema<ProviderCallback>({
  name: 'ProviderCallback',
  tableName: 'provider_callbacks',
  properties: {
    key: { type: 'string', length: 255, primary: true },
    receivedAt: { type: 'Date', columnType: 'timestamptz', index: true },
  },
});
